import { LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import type { ChangeMessage } from '../src/lib/change-bus';
import { TestAgent, uniqueAddress } from './support/agent';
import { scratchRedisPrefix } from './support/redis-scratch';
import { createTestApp, type TestApp } from './support/test-app';
import { waitFor } from './jobs/support/wait-for';

describe('REDIS_PREFIX', () => {
  it('names every key of the instance; REDIS_QUEUE_PREFIX, its earlier name, still sets it', () => {
    expect(parseEnv({}).REDIS_PREFIX).toBe('atelier');
    expect(parseEnv({ REDIS_QUEUE_PREFIX: 'studio-b' }).REDIS_PREFIX).toBe('studio-b');
    expect(parseEnv({ REDIS_PREFIX: 'studio-c', REDIS_QUEUE_PREFIX: 'studio-b' }).REDIS_PREFIX).toBe(
      'studio-c',
    );
    expect(() => parseEnv({ REDIS_PREFIX: 'a:b' })).toThrow(/REDIS_PREFIX letters, digits/);
  });
});

// Two nodes of one instance (one prefix) and a node of another instance, on one Redis: the nodes share
// their throttles and news, the other instance sees none of them.
describe.skipIf(!process.env.REDIS_URL)('instances sharing one Redis', () => {
  let first: TestApp;
  let second: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    const prefix = scratchRedisPrefix();
    first = await createTestApp({ redis: true, env: { REDIS_PREFIX: prefix } });
    second = await createTestApp({ redis: true, env: { REDIS_PREFIX: prefix } });
    other = await createTestApp({ redis: true });
    await Promise.all([first, second, other].map((t) => t.deps.changes.whenReady()));
  });
  afterAll(async () => {
    for (const t of [first, second, other]) await t?.close();
  });

  it("counts an address's failed sign-ins across the instance's nodes, not another instance's", async () => {
    const address = uniqueAddress();
    const signIn = (t: TestApp, n: number) =>
      new TestAgent(t.app, address).post('/api/login', {
        email: `nobody-${n}@example.test`,
        password: 'guess',
      });
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE; i++)
      expect((await signIn(first, i)).statusCode).toBe(422);
    expect((await signIn(second, 100)).statusCode).toBe(429);
    expect((await signIn(other, 100)).statusCode).toBe(422);
  });

  it("carries a node's news to the instance's other nodes, not to another instance", async () => {
    const heard: Array<{ by: string; message: ChangeMessage }> = [];
    second.deps.changes.on('redis-prefix-probe', (message) => heard.push({ by: 'second', message }));
    other.deps.changes.on('redis-prefix-probe', (message) => heard.push({ by: 'other', message }));
    // Published one after the other on one Redis, so each subscriber hears them in that order.
    await first.deps.changes.publish({ topic: 'redis-prefix-probe', subject: 'from the first node' });
    await other.deps.changes.publish({ topic: 'redis-prefix-probe', subject: 'from the other instance' });
    await first.deps.changes.publish({ topic: 'redis-prefix-probe', subject: 'last' });
    // Each subscriber hears in Redis's order: had the other instance heard the first node, that news
    // would have come before its own message's echo.
    await waitFor(
      'the second node to hear the last news, and the other instance its own echo',
      () =>
        heard.some(({ by, message }) => by === 'second' && message.subject === 'last') &&
        heard.filter(({ by }) => by === 'other').length >= 2,
    );
    expect(heard.filter(({ by }) => by === 'second').map(({ message }) => message.subject)).toEqual([
      'from the first node',
      'last',
    ]);
    // The other instance heard only its own news: delivered in its process as it published, then back.
    expect(heard.filter(({ by }) => by === 'other').map(({ message }) => message.subject)).toEqual([
      'from the other instance',
      'from the other instance',
    ]);
  });
});
