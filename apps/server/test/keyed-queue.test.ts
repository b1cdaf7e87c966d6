import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../src/lib/keyed-queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedQueue', () => {
  it('runs the tasks of one key one after another, in order, and other keys beside them', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} starts`);
      await tick();
      log.push(`${name} ends`);
      return name;
    };
    const results = await Promise.all([
      queue.run('a', task('a1')),
      queue.run('a', task('a2')),
      queue.run('b', task('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 starts')).toBeGreaterThan(log.indexOf('a1 ends'));
    expect(log.indexOf('b1 starts')).toBeLessThan(log.indexOf('a1 ends'));
  });

  it('lets the tasks behind a failed one run, and hands the failure to its caller', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('a', async () => {
      await tick();
      throw new Error('first failed');
    });
    const next = queue.run('a', async () => 'second ran');
    await expect(failed).rejects.toThrow('first failed');
    await expect(next).resolves.toBe('second ran');
  });
});
