import {
  LOGIN_ACCOUNT_WINDOW_MINUTES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_MINUTE,
  SHARE_PASSWORD_LINK_WINDOW_MINUTES,
  SHARE_PASSWORD_MAX_FAILURES_PER_LINK,
  SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE,
} from '@atelier/contracts';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserTokensRepository } from '../src/modules/auth/user-tokens.repository';
import { hashToken } from '../src/lib/tokens';
import { TestAgent, uniqueAddress } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createSession, createUser, DEFAULT_PASSWORD, signedInAgent } from './support/factories';
import { SESSION_COOKIE } from '../src/plugins/session.plugin';
import { createTestApp, type TestApp } from './support/test-app';
import { TestClock } from './sharing/sharing-harness';

/** A /64 of its own: its addresses differ only in the last 64 bits. */
function uniqueIpv6Network(): string {
  const group = () => randomInt(1, 0xffff).toString(16);
  return `2001:db8:${group()}:${group()}`;
}

function statusCounts(statuses: number[]): Record<number, number> {
  return statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
}

describeEachDatabase('guessing at one account from many addresses', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true });
  });
  afterAll(() => t.close());

  const login = (agent: TestAgent, email: string, password: string) =>
    agent.post('/api/login', { email, password });

  /** Wrong passwords from fresh addresses until the account's window is spent. */
  async function attack(email: string, addresses = 4): Promise<number[]> {
    const statuses: number[] = [];
    for (let a = 0; a < addresses; a++) {
      const agent = new TestAgent(t.app, uniqueAddress());
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_MINUTE; i++)
        statuses.push((await login(agent, email, `guess ${a}-${i}`)).statusCode);
    }
    return statuses;
  }

  it(`checks at most ${LOGIN_MAX_FAILURES_PER_ACCOUNT} wrong passwords per account in ${LOGIN_ACCOUNT_WINDOW_MINUTES} minutes, whatever the addresses`, async () => {
    const { user } = await createUser(t.deps);
    const statuses: number[] = [];
    for (let a = 0; a < 20; a++) {
      const agent = new TestAgent(t.app, uniqueAddress());
      for (let i = 0; i < 6; i++)
        statuses.push((await login(agent, user.email, `guess ${a}-${i}`)).statusCode);
    }
    expect(statusCounts(statuses)).toEqual({
      422: LOGIN_MAX_FAILURES_PER_ACCOUNT,
      429: 120 - LOGIN_MAX_FAILURES_PER_ACCOUNT,
    });
    // A browser that never signed in to the account is held back, even with the right password.
    const stranger = new TestAgent(t.app, uniqueAddress());
    expect((await login(stranger, user.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
  });

  it('holds the password checks of the account’s own settings to the account’s window too, the session a few of its own (a stolen session from many addresses)', async () => {
    const { user } = await createUser(t.deps);
    const token = await createSession(t.deps, user);
    const statuses: number[] = [];
    for (let a = 0; a < 4; a++) {
      const agent = new TestAgent(t.app, uniqueAddress());
      agent.setCookie(SESSION_COOKIE, token);
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_MINUTE; i++)
        statuses.push(
          (
            await agent.post('/api/user/password', {
              current_password: `guess ${a}-${i}`,
              password: 'a brand new password',
              password_confirmation: 'a brand new password',
            })
          ).statusCode,
        );
    }
    // The window's guesses, then the session's own few (a quarter-hour's, not a minute's: the person's
    // way to change the password while strangers fill the window), however many addresses it comes from.
    const allowed = LOGIN_MAX_FAILURES_PER_ACCOUNT + LOGIN_MAX_FAILURES_PER_MINUTE;
    expect(statusCounts(statuses)).toEqual({ 422: allowed, 429: statuses.length - allowed });
  });

  it('holds an unknown address to the same window, so the answer does not tell accounts apart', async () => {
    const statuses = await attack(`nobody-${randomInt(1e9)}@example.test`);
    expect(statusCounts(statuses)).toEqual({
      422: LOGIN_MAX_FAILURES_PER_ACCOUNT,
      429: statuses.length - LOGIN_MAX_FAILURES_PER_ACCOUNT,
    });
  });

  it('still lets the person in from a browser that signed in before, even from the same address as a stranger', async () => {
    const { user } = await createUser(t.deps);
    const address = uniqueAddress();
    const own = new TestAgent(t.app, address);
    expect((await login(own, user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect((await own.post('/logout')).statusCode).toBe(204);

    const statuses = await attack(user.email);
    expect(statuses.filter((s) => s === 422)).toHaveLength(LOGIN_MAX_FAILURES_PER_ACCOUNT);

    expect((await login(new TestAgent(t.app, address), user.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
    expect((await login(own, user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    expect((await own.get('/api/user')).statusCode).toBe(200);
  });

  it('lets a new browser in once it followed an e-mailed reset link, while the window is full', async () => {
    const { user } = await createUser(t.deps);
    await attack(user.email);
    const browser = new TestAgent(t.app, uniqueAddress());
    expect((await login(browser, user.email, DEFAULT_PASSWORD)).statusCode).toBe(429);

    const token = 'reset-token-' + randomInt(1e9);
    await new UserTokensRepository(t.deps.database, 'password_resets', t.deps.clock).insert(
      user.id,
      hashToken(token),
      new Date(t.deps.clock().getTime() + 3_600_000),
    );
    const reset = await browser.post('/api/password/reset', {
      token,
      email: user.email,
      password: 'a fresh secret',
      password_confirmation: 'a fresh secret',
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(browser, user.email, 'a fresh secret')).statusCode).toBe(200);
    expect(
      (await login(new TestAgent(t.app, uniqueAddress()), user.email, 'a fresh secret')).statusCode,
    ).toBe(429);
  });

  it('counts an IPv6 client by its /64, so rotating addresses inside it gains nothing', async () => {
    const { user } = await createUser(t.deps);
    const network = uniqueIpv6Network();
    const statuses: number[] = [];
    for (let i = 1; i <= LOGIN_MAX_FAILURES_PER_MINUTE + 1; i++)
      statuses.push((await login(new TestAgent(t.app, `${network}::${i}`), user.email, 'guess')).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 422)).toBe(true);
  });
});

describeEachDatabase('the request ceiling per address', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true, env: { RATE_LIMIT_MAX: '3' } });
  });
  afterAll(() => t.close());

  it('counts an IPv6 client by its /64', async () => {
    const network = uniqueIpv6Network();
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++)
      statuses.push((await new TestAgent(t.app, `${network}::${i}`).get('/api/ping')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await new TestAgent(t.app, `${uniqueIpv6Network()}::1`).get('/api/ping')).statusCode).toBe(200);
  });
});

describeEachDatabase('guessing at one share link from many addresses', (kind) => {
  for (const redis of [false, true]) {
    describe(redis ? 'counted in Redis' : 'counted in memory', () => {
      let t: TestApp;
      const clock = new TestClock();
      beforeAll(async () => {
        t = await createTestApp({ database: kind, redis, clock: clock.now });
      });
      afterAll(() => t.close());

      async function protectedLink() {
        const { agent: owner, user } = await signedInAgent(t.app);
        const id = (await owner.post('/api/create-folder', { name: 'Guarded' })).json().data.id;
        const res = await owner.post('/api/share', {
          id,
          type: 'folder',
          permission: 'visitor',
          isPassword: true,
          password: 'guarded secret',
        });
        expect(res.statusCode, res.body).toBe(201);
        return { owner: user, token: res.json().data.attributes.token as string };
      }

      const guess = async (address: string, token: string, password: string) =>
        (await new TestAgent(t.app, address).post(`/api/sharing/authenticate/${token}`, { password }))
          .statusCode;

      const alerts = async (userId: string) =>
        (await t.deps.notifications.list(userId, 1, 50)).data.filter(
          (n) => n.attributes.category === 'security-alert',
        );

      it(
        `checks at most ${SHARE_PASSWORD_MAX_FAILURES_PER_LINK} wrong passwords per link in ${SHARE_PASSWORD_LINK_WINDOW_MINUTES} minutes, and tells the owner once`,
        { timeout: 120_000 },
        async () => {
          const { owner, token } = await protectedLink();
          const statuses: number[] = [];
          for (let a = 0; a < 60; a++) {
            const address = uniqueAddress();
            for (let i = 0; i < SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE; i++)
              statuses.push(await guess(address, token, `guess ${a}-${i}`));
          }
          expect(statusCounts(statuses)).toEqual({
            401: SHARE_PASSWORD_MAX_FAILURES_PER_LINK,
            429: 300 - SHARE_PASSWORD_MAX_FAILURES_PER_LINK,
          });
          const told = await alerts(owner.id);
          expect(told).toHaveLength(1);
          expect(told[0]!.attributes.action).toEqual({
            type: 'route',
            params: expect.objectContaining({ route: 'MySharedItems' }),
          });
        },
      );

      it.skipIf(redis)('tells the owner again when the attack goes on in a later window', async () => {
        const { owner, token } = await protectedLink();
        const flood = async () => {
          for (let a = 0; a <= SHARE_PASSWORD_MAX_FAILURES_PER_LINK / 2; a++) {
            const address = uniqueAddress();
            await guess(address, token, 'first');
            await guess(address, token, 'second');
          }
        };
        await flood();
        expect(await alerts(owner.id)).toHaveLength(1);
        clock.advanceSeconds(SHARE_PASSWORD_LINK_WINDOW_MINUTES * 60 + 1);
        expect(await guess(uniqueAddress(), token, 'guarded secret')).toBe(204);
        await flood();
        expect(await alerts(owner.id)).toHaveLength(2);
      });

      it('counts an IPv6 guesser by its /64', async () => {
        const { token } = await protectedLink();
        const network = uniqueIpv6Network();
        const statuses: number[] = [];
        for (let i = 1; i <= SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE + 1; i++)
          statuses.push(await guess(`${network}::${i}`, token, `guess ${i}`));
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      });

      it('asks for a share password of at least 8 characters', async () => {
        const { agent: owner } = await signedInAgent(t.app);
        const id = (await owner.post('/api/create-folder', { name: 'Short' })).json().data.id;
        const res = await owner.post('/api/share', {
          id,
          type: 'folder',
          permission: 'visitor',
          isPassword: true,
          password: '1234567',
        });
        expect(res.statusCode).toBe(422);
        expect(res.json().errors.password).toEqual(['Use at least 8 characters.']);
      });
    });
  }
});
