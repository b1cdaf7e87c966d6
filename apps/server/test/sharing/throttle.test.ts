import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app';
import { createTestApp } from '../support/test-app';
import { signedInAgent } from '../support/factories';
import { describeEachDatabase } from '../support/each-database';
import { anonymousAgent, createShare } from './sharing-harness';

// Scaled out, the password throttle counts in Redis, so guesses spread over API nodes add up.
describe.runIf(process.env.REDIS_URL)('share password throttle in Redis', () => {
  describeEachDatabase('with REDIS_URL', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ database: kind, redis: true });
    });
    afterAll(() => t.close());

    it('refuses the sixth wrong password of a minute, counted in Redis', async () => {
      const { agent: owner } = await signedInAgent(t.app);
      const id = (await owner.post('/api/create-folder', { name: 'Guarded' })).json().data.id;
      const link = await createShare(owner, {
        id,
        type: 'folder',
        permission: 'visitor',
        isPassword: true,
        password: 'guarded secret',
      });
      const guesser = await anonymousAgent(t.app, '192.0.2.50');
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) {
        answers.push(
          (await guesser.post(`/api/sharing/authenticate/${link.token}`, { password: `guess ${i}` }))
            .statusCode,
        );
      }
      expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
      const key = `${t.env.REDIS_PREFIX}:share-password-attempts:${link.token}|192.0.2.50`;
      expect(Number(await t.deps.redis!.get(key))).toBe(6);
    });
  });
});
