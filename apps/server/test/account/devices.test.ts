import { SessionList } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { hashToken } from '../../src/lib/tokens';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents } from '../realtime/support/sockets';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describeEachDatabase('devices', (kind) => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  /** A browser signed in as the user, as the given agent from the given address. */
  async function device(user: UserRow, userAgent: string, ip = '203.0.113.7') {
    const { token } = await t.deps.sessions.create(user, { ip, userAgent });
    const agent = new TestAgent(t.app);
    agent.setCookie(SESSION_COOKIE, token);
    await agent.get('/api/ping');
    return { agent, token };
  }

  const devicesOf = async (agent: TestAgent) => {
    const answer = await agent.get('/api/user/sessions');
    expect(answer.statusCode, answer.body).toBe(200);
    return { body: answer.body, data: SessionList.parse(answer.json()).data };
  };
  const storedSessions = (userId: string) =>
    t.deps.database.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();

  it('lists the user’s own sessions by public id, the current one marked, the agent in words', async () => {
    const { user } = await createUser(t.deps);
    const laptop = await device(user, FIREFOX_LINUX, '203.0.113.7');
    const phone = await device(user, SAFARI_IPHONE, '2001:db8::5');
    const { user: stranger } = await createUser(t.deps);
    const theirs = await device(stranger, FIREFOX_LINUX);

    const { body, data } = await devicesOf(laptop.agent);
    const stored = await storedSessions(user.id);
    expect(data.map((d) => d.id).sort()).toEqual(stored.map((s) => s.public_id).sort());
    const byAgent = Object.fromEntries(data.map((d) => [d.attributes.user_agent, d.attributes]));
    expect(byAgent[FIREFOX_LINUX]).toMatchObject({
      ip: '203.0.113.7',
      browser: 'Firefox 128',
      os: 'Linux',
      device: 'desktop',
      current: true,
    });
    expect(byAgent[SAFARI_IPHONE]).toMatchObject({
      ip: '2001:db8::5',
      browser: 'Safari 17',
      os: 'iOS 17.5',
      device: 'mobile',
      current: false,
    });
    // Neither the cookies nor what the database keys sessions by ever leave the server.
    for (const secret of [laptop.token, phone.token, hashToken(laptop.token), hashToken(phone.token)])
      expect(body).not.toContain(secret);
    // Nothing of another user's.
    const [theirSession] = await storedSessions(stranger.id);
    expect(body).not.toContain(theirSession!.public_id);
    expect((await devicesOf(theirs.agent)).data.map((d) => d.id)).toEqual([theirSession!.public_id]);
  });

  it('ends another device: its next request is 401 and its sockets close at once, the others stay', async () => {
    const { user } = await createUser(t.deps);
    const laptop = await device(user, FIREFOX_LINUX);
    const phone = await device(user, SAFARI_IPHONE);
    const laptopSocket = await connectSocket(baseUrl, { session: laptop.token });
    const phoneSocket = await connectSocket(baseUrl, { session: phone.token });
    const laptopEvents = recordEvents(laptopSocket);
    const phoneClosed = new Promise<string>((resolve) => phoneSocket.once('disconnect', resolve));
    try {
      const phoneId = (await devicesOf(laptop.agent)).data.find((d) => !d.attributes.current)!.id;
      expect((await laptop.agent.delete(`/api/user/sessions/${phoneId}`)).statusCode).toBe(204);

      expect(await phoneClosed).toBe('io server disconnect');
      expect((await phone.agent.get('/api/user')).statusCode).toBe(401);
      expect((await laptop.agent.get('/api/user')).statusCode).toBe(200);
      expect((await devicesOf(laptop.agent)).data.map((d) => d.attributes.current)).toEqual([true]);
      // The caller's own socket is still open: an event still reaches it.
      await t.deps.notifications.notify(user.id, { category: 'gift', title: 'still here', description: '' });
      await waitFor('the laptop’s event', () => laptopEvents.length > 0);
      expect(laptopSocket.connected).toBe(true);
    } finally {
      laptopSocket.close();
      phoneSocket.close();
    }
  });

  it('answers 404 for another user’s session, and for unknown ids, and ends nothing', async () => {
    const { user } = await createUser(t.deps);
    const mine = await device(user, FIREFOX_LINUX);
    const { user: stranger } = await createUser(t.deps);
    const theirs = await device(stranger, SAFARI_IPHONE);
    const [theirSession] = await storedSessions(stranger.id);

    for (const id of [theirSession!.public_id, theirSession!.id, randomUUID(), 'not-an-id']) {
      const answer = await mine.agent.delete(`/api/user/sessions/${id}`);
      expect(answer.statusCode, id).toBe(404);
    }
    expect(await storedSessions(stranger.id)).toEqual([theirSession]);
    expect((await theirs.agent.get('/api/user')).statusCode).toBe(200);
    expect((await mine.agent.get('/api/user')).statusCode).toBe(200);
  });

  it('ending the current session signs this browser out', async () => {
    const { user } = await createUser(t.deps);
    const laptop = await device(user, FIREFOX_LINUX);
    const [own] = (await devicesOf(laptop.agent)).data;
    const answer = await laptop.agent.delete(`/api/user/sessions/${own!.id}`);
    expect(answer.statusCode).toBe(204);
    expect(answer.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    expect(await storedSessions(user.id)).toEqual([]);
    expect((await laptop.agent.get('/api/user')).statusCode).toBe(401);
  });

  it('refreshes last seen at most once every five minutes', async () => {
    const { user } = await createUser(t.deps);
    const laptop = await device(user, FIREFOX_LINUX);
    const lastSeen = async () => (await storedSessions(user.id))[0]!.last_active_at;
    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000).toISOString();
    await t.deps.database.db
      .updateTable('sessions')
      .set({ last_active_at: sixMinutesAgo })
      .where('user_id', '=', user.id)
      .execute();

    const before = Date.now();
    expect((await laptop.agent.get('/api/user')).statusCode).toBe(200);
    const refreshed = await lastSeen();
    expect(Date.parse(refreshed)).toBeGreaterThanOrEqual(before);
    expect((await devicesOf(laptop.agent)).data[0]!.attributes.last_active_at).toBe(refreshed);
    // Within the five minutes no request writes it again.
    expect((await laptop.agent.get('/api/user')).statusCode).toBe(200);
    expect(await lastSeen()).toBe(refreshed);
  });
});
