import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { createShare, TestClock } from '../sharing/sharing-harness';

const PER_DAY = 100;

const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.test`);

describeEachDatabase('recipients an account may mail a day', (kind) => {
  let t: TestApp;
  const clock = new TestClock();

  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true, clock: clock.now });
  });
  afterAll(() => t.close());

  /** Messages written so far (no SMTP here: each one is an .eml file). */
  const mailsWritten = () => {
    const folder = path.join(t.dataDir, 'mail');
    return existsSync(folder) ? readdirSync(folder).length : 0;
  };

  const owner = async (): Promise<TestAgent> =>
    (await signedInAgent(t.app, (await createUser(t.deps, { storageCapacity: 1_000_000 })).user)).agent;
  const folder = async (agent: TestAgent, name: string) =>
    (await agent.post('/api/create-folder', { name })).json().data.id as string;

  it(`sends to ${PER_DAY} addresses a day across share links, upload requests and team invitations, then answers 429 until the next day`, async () => {
    const agent = await owner();
    const link = await createShare(agent, {
      id: await folder(agent, 'Spam'),
      type: 'folder',
      permission: 'visitor',
      emails: addresses('created', 10),
    });
    for (let round = 0; round < 4; round++) {
      const res = await agent.post(`/api/share/${link.token}/email`, {
        emails: addresses(`round${round}`, 20),
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    const request = await agent.post('/api/file-request', { email: 'outsider@example.test' });
    expect(request.statusCode, request.body).toBe(201);
    const sent = mailsWritten();

    // 91 so far: 10 more pass the cap, so none of them is sent.
    const over = await agent.post(`/api/share/${link.token}/email`, { emails: addresses('over', 10) });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'throttled',
      message: `An account can send e-mail to at most ${PER_DAY} addresses a day. Try again tomorrow.`,
    });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);

    // What is left still goes out, and nothing more, whatever route carries it.
    expect(
      (await agent.post(`/api/share/${link.token}/email`, { emails: addresses('last', 9) })).statusCode,
    ).toBe(204);
    const refused = [
      await agent.post(`/api/share/${link.token}/email`, { emails: ['one-more@example.test'] }),
      await agent.post('/api/file-request', { email: 'another-outsider@example.test' }),
      await agent.post('/api/teams/folders', {
        name: 'Crew',
        invitations: [{ email: 'invitee@example.test', permission: 'can_view' }],
      }),
      await agent.post('/api/share', {
        id: await folder(agent, 'Announced'),
        type: 'folder',
        permission: 'visitor',
        emails: ['announced@example.test'],
      }),
    ];
    expect(refused.map((res) => res.statusCode)).toEqual([429, 429, 429, 429]);
    expect(mailsWritten()).toBe(sent + 9);
    // A refused call leaves nothing behind: no request, no team folder, no link.
    expect((await agent.get('/api/file-request')).json().data).toHaveLength(1);
    expect((await agent.get('/api/browse/share')).json().data).toHaveLength(1);

    // Another account has its own count; a calls without mail are not counted at all.
    const other = await owner();
    expect((await other.post('/api/file-request', { email: 'x@example.test' })).statusCode).toBe(201);
    expect((await agent.post('/api/file-request', {})).statusCode).toBe(201);

    clock.advanceSeconds(retryAfter);
    expect(
      (await agent.post(`/api/share/${link.token}/email`, { emails: addresses('tomorrow', 20) })).statusCode,
    ).toBe(204);
  });

  it('counts no address for an upload request that is refused', async () => {
    const agent = await owner();
    const notMine = await folder(await owner(), 'Someone else’s');
    for (let i = 0; i < PER_DAY; i++) {
      const refused = await agent.post('/api/file-request', {
        folder_id: notMine,
        email: `r${i}@example.test`,
      });
      expect(refused.statusCode).toBe(404);
    }
    expect((await agent.post('/api/file-request', { email: 'welcome@example.test' })).statusCode).toBe(201);
  });

  it('counts no address for a share link that is refused (the item has one)', async () => {
    const agent = await owner();
    const shared = await folder(agent, 'Shared once');
    await createShare(agent, { id: shared, type: 'folder', permission: 'visitor' });
    for (let i = 0; i < PER_DAY / 20; i++) {
      const again = await agent.post('/api/share', {
        id: shared,
        type: 'folder',
        permission: 'visitor',
        emails: addresses(`again${i}`, 20),
      });
      expect(again.statusCode).toBe(422);
    }
    const other = await agent.post('/api/share', {
      id: await folder(agent, 'Shared next'),
      type: 'folder',
      permission: 'visitor',
      emails: ['welcome@example.test'],
    });
    expect(other.statusCode).toBe(201);
  });

  it('counts concurrent calls atomically: of 10 calls of 20 addresses at once, 5 are sent', async () => {
    const agent = await owner();
    const link = await createShare(agent, {
      id: await folder(agent, 'Burst'),
      type: 'folder',
      permission: 'visitor',
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        agent.post(`/api/share/${link.token}/email`, { emails: addresses(`burst${i}`, 20) }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429, 429, 429, 429, 429]);
  });
});
