import { AppPasswordList, LoginFlowDocument } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { clientName } from '../../src/modules/sync-clients/client-name';
import { LOGIN_FLOW_TTL_MS } from '../../src/modules/sync-clients/login-flows.service';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

const DESKTOP =
  'Mozilla/5.0 (Linux) mirall/3.7.3git (Nextcloud, debian-6.1.0-28-amd64 ClientArchitecture: x86_64)';

interface Started {
  poll: { token: string; endpoint: string };
  login: string;
}

describeEachDatabase('sync clients: Login Flow v2', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  let agent: TestAgent;
  let user: UserRow;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: clock.now });
    ({ agent, user } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  const start = async (userAgent = DESKTOP): Promise<Started & { loginToken: string }> => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/index.php/login/v2',
      headers: { 'user-agent': userAgent },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const started = answer.json() as Started;
    return { ...started, loginToken: started.login.split('/').pop()! };
  };
  /** The client's poll, its token sent as a form as the desktop client sends it. */
  const poll = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/index.php/login/v2/poll',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${encodeURIComponent(token)}`,
    });
  const ocsUser = (loginName: string, password: string) =>
    t.app.inject({
      method: 'GET',
      url: '/ocs/v2.php/cloud/user?format=json',
      headers: {
        'ocs-apirequest': 'true',
        authorization: `Basic ${Buffer.from(`${loginName}:${password}`).toString('base64')}`,
      },
    });

  it('starts a flow: a poll token and endpoint for the client, and the page to open in the browser', async () => {
    const started = await start();
    expect(started.poll.endpoint).toBe('http://atelier.test/index.php/login/v2/poll');
    expect(started.login).toMatch(/^http:\/\/atelier\.test\/login\/v2\/flow\/[A-Za-z0-9_-]{43}$/);
    expect(started.poll.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The page's token is not the poll token: whoever sees the address cannot poll.
    expect(started.loginToken).not.toBe(started.poll.token);
    expect((await poll(started.loginToken)).statusCode).toBe(404);
  });

  it('hands a fresh app password to the poll once the person granted, exactly once', async () => {
    const { poll: client, loginToken } = await start();
    expect((await poll(client.token)).statusCode).toBe(404);

    const shown = await agent.get(`/api/login-flows/${loginToken}`);
    expect(shown.statusCode).toBe(200);
    expect(LoginFlowDocument.parse(shown.json()).data).toEqual({
      client: 'Nextcloud desktop 3.7.3 on Linux',
      user_agent: DESKTOP,
      expires_at: new Date(clock.now().getTime() + LOGIN_FLOW_TTL_MS).toISOString(),
    });
    expect((await poll(client.token)).statusCode).toBe(404);

    expect((await agent.post(`/api/login-flows/${loginToken}/grant`)).statusCode).toBe(204);
    const answer = await poll(client.token);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const credentials = answer.json() as { server: string; loginName: string; appPassword: string };
    expect(credentials).toEqual({
      server: 'http://atelier.test',
      loginName: user.email,
      appPassword: expect.stringMatching(/^[a-z0-9]{6}(-[a-z0-9]{6}){3}$/),
    });
    // Once: the flow is gone, for the poll and for the page.
    expect((await poll(client.token)).statusCode).toBe(404);
    expect((await agent.get(`/api/login-flows/${loginToken}`)).statusCode).toBe(404);
    expect((await agent.post(`/api/login-flows/${loginToken}/grant`)).statusCode).toBe(404);

    // The app password signs in, is listed under the client's name, and stops once revoked.
    expect((await ocsUser(credentials.loginName, credentials.appPassword)).statusCode).toBe(200);
    const listed = AppPasswordList.parse((await agent.get('/api/user/app-passwords')).json()).data;
    const granted = listed.find((entry) => entry.attributes.name === 'Nextcloud desktop 3.7.3 on Linux');
    expect(granted).toBeDefined();
    expect((await agent.delete(`/api/user/app-passwords/${granted!.id}`)).statusCode).toBe(204);
    expect((await ocsUser(credentials.loginName, credentials.appPassword)).statusCode).toBe(401);
  });

  it('takes the poll token as a form, as JSON or in the query', async () => {
    for (const send of [
      (token: string) => poll(token),
      (token: string) =>
        t.app.inject({ method: 'POST', url: '/index.php/login/v2/poll', payload: { token } }),
      (token: string) =>
        t.app.inject({ method: 'POST', url: `/index.php/login/v2/poll?token=${encodeURIComponent(token)}` }),
    ]) {
      const { poll: client, loginToken } = await start();
      await agent.post(`/api/login-flows/${loginToken}/grant`);
      expect((await send(client.token)).statusCode).toBe(200);
    }
  });

  it('ends a refused flow: its poll, page and grant are 404 from then on', async () => {
    const { poll: client, loginToken } = await start();
    expect((await agent.post(`/api/login-flows/${loginToken}/refuse`)).statusCode).toBe(204);
    expect((await poll(client.token)).statusCode).toBe(404);
    expect((await agent.get(`/api/login-flows/${loginToken}`)).statusCode).toBe(404);
    expect((await agent.post(`/api/login-flows/${loginToken}/grant`)).statusCode).toBe(404);
    expect((await agent.post(`/api/login-flows/${loginToken}/refuse`)).statusCode).toBe(404);
  });

  it('lets a flow expire after twenty minutes, granted or not', async () => {
    const waiting = await start();
    const granted = await start();
    await agent.post(`/api/login-flows/${granted.loginToken}/grant`);
    clock.advanceSeconds(LOGIN_FLOW_TTL_MS / 1000);
    expect((await agent.get(`/api/login-flows/${waiting.loginToken}`)).statusCode).toBe(404);
    expect((await agent.post(`/api/login-flows/${waiting.loginToken}/grant`)).statusCode).toBe(404);
    expect((await poll(granted.poll.token)).statusCode).toBe(404);
    // Starting a flow lets the expired ones go.
    await start();
    const rows = await t.deps.database.db.selectFrom('login_flows').select('id').execute();
    expect(rows).toHaveLength(1);
  });

  it('grants only to a signed-in person, and the client cannot grant with its poll token', async () => {
    const { poll: client, loginToken } = await start();
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/login-flows/${loginToken}/grant` });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/login-flows/${loginToken}` })).statusCode).toBe(
      401,
    );
    expect((await agent.post(`/api/login-flows/${client.token}/grant`)).statusCode).toBe(404);
    expect((await poll(client.token)).statusCode).toBe(404);
  });

  it('answers a client that keeps the cookies it was given without asking for an XSRF token', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/index.php/login/v2' });
    const cookie = [first.headers['set-cookie']]
      .flat()
      .map((line) => String(line).split(';')[0])
      .join('; ');
    expect(cookie).not.toBe('');
    const again = await t.app.inject({ method: 'POST', url: '/index.php/login/v2', headers: { cookie } });
    expect(again.statusCode).toBe(200);
    const polled = await t.app.inject({
      method: 'POST',
      url: '/index.php/login/v2/poll',
      headers: { cookie },
      payload: { token: (again.json() as Started).poll.token },
    });
    expect(polled.statusCode).toBe(404);
  });
});

describe('Login Flow v2 throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The default ceiling: 10 flows a minute per address, 120 polls.
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '6000' } });
  });
  afterAll(() => t.close());

  it('refuses an address that starts more than ten flows a minute, or polls more than 120 times', async () => {
    const starts = [];
    for (let i = 0; i < 11; i++)
      starts.push((await t.app.inject({ method: 'POST', url: '/index.php/login/v2' })).statusCode);
    expect(starts).toEqual([...Array(10).fill(200), 429]);
    const polls = [];
    for (let i = 0; i < 121; i++)
      polls.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/index.php/login/v2/poll',
            payload: { token: 'unknown' },
          })
        ).statusCode,
      );
    expect(polls.slice(0, 120).every((status) => status === 404)).toBe(true);
    expect(polls[120]).toBe(429);
  });
});

describe('client names', () => {
  it('says which client asks, in words', () => {
    expect(clientName(DESKTOP)).toBe('Nextcloud desktop 3.7.3 on Linux');
    expect(clientName('Mozilla/5.0 (Windows) mirall/2.11.0 (ownCloud, windows-10.0)')).toBe(
      'ownCloud desktop 2.11.0 on Windows',
    );
    expect(clientName('Mozilla/5.0 (Android) Nextcloud-android/3.26.0')).toBe('Nextcloud Android 3.26.0');
    expect(clientName('Mozilla/5.0 (iOS) Nextcloud-iOS/4.9.0')).toBe('Nextcloud iOS 4.9.0');
    expect(clientName('rclone/v1.60.1')).toBe('rclone/v1.60.1');
    expect(clientName('')).toBe('Unknown client');
    expect(clientName('x'.repeat(300))).toHaveLength(100);
  });
});
