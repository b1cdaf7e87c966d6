import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { closeOnSignals } from '../src/lib/shutdown-signals';

it('closes once on the first of several signals, and keeps listening while it closes', async () => {
  const target = new EventEmitter();
  const closed: string[] = [];
  let finish!: () => void;
  closeOnSignals(async (signal) => {
    closed.push(signal);
    await new Promise<void>((resolve) => (finish = resolve));
  }, target);
  target.emit('SIGINT');
  // A second signal while closing finds a listener (no default action, which would kill the
  // process) and starts nothing more.
  expect(target.listenerCount('SIGINT')).toBe(1);
  target.emit('SIGINT');
  target.emit('SIGTERM');
  finish();
  expect(closed).toEqual(['SIGINT']);
});
