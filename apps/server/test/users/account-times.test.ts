import { UserResource } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('the times of an account', (kind) => {
  let t: TestApp;
  let now = new Date('2031-03-18T09:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      clock: () => now,
      settings: { file_manager_cutoff: '2031-03-19' },
    });
  });
  afterAll(() => t.close());

  async function register(name: string) {
    const agent = new TestAgent(t.app);
    const answer = await agent.post('/api/register', {
      name,
      email: `${name.toLowerCase()}@example.test`,
      password: 'analytical engine',
      password_confirmation: 'analytical engine',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return { agent, user: UserResource.parse(answer.json()).data };
  }

  it('come from the app’s clock: the day an account is made decides whether it gets the file manager', async () => {
    now = new Date('2031-03-18T09:00:00.000Z');
    const early = await register('Early');
    now = new Date('2031-03-20T09:00:00.000Z');
    const late = await register('Late');

    expect(early.user.attributes).toMatchObject({ created_at: '2031-03-18T09:00:00.000Z', dateStatus: true });
    expect(late.user.attributes).toMatchObject({ created_at: '2031-03-20T09:00:00.000Z', dateStatus: false });

    // A change of the account is stamped with the clock too.
    now = new Date('2031-03-21T12:00:00.000Z');
    expect(
      (await early.agent.patch('/api/user/settings', { name: 'name', value: 'Early Bird' })).statusCode,
    ).toBe(204);
    const row = await t.deps.users.findById(early.user.id);
    expect(row).toMatchObject({ name: 'Early Bird', updated_at: '2031-03-21T12:00:00.000Z' });
  });
});
