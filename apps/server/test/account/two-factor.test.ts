import {
  LOGIN_MAX_FAILURES_PER_MINUTE,
  RECOVERY_CODE_COUNT,
  RecoveryCodes,
  TWO_FACTOR_CHALLENGE_MINUTES,
  TwoFactorSetup,
  TwoFactorStatus,
  UserResource,
} from '@atelier/contracts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { TWO_FACTOR_CHALLENGE_COOKIE } from '../../src/modules/auth/sign-in';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { TestAgent, uniqueAddress } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

describeEachDatabase('account: two-factor authentication', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true, clock: clock.now });
  });
  afterAll(() => t.close());

  /** The code an authenticator app holding `secret` shows at the test clock's time (`steps` later). */
  const codeAt = (secret: string, steps = 0) =>
    TOTP.generate({
      secret: Secret.fromBase32(secret),
      timestamp: clock.now().getTime() + steps * 30_000,
    });
  /** Moves the clock to the next 30-second step, so a new code exists and the old one is behind. */
  const nextStep = () => clock.advanceSeconds(30);

  /** A signed-in user who has turned two-factor sign-in on: the secret and the recovery codes. */
  async function enrolled(): Promise<{ agent: TestAgent; user: UserRow; secret: string; codes: string[] }> {
    const { agent, user } = await signedInAgent(t.app);
    const setup = await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = TwoFactorSetup.parse(setup.json());
    const confirmed = await agent.post('/api/user/confirmed-two-factor-authentication', {
      code: codeAt(secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    nextStep();
    return { agent, user, secret, codes: RecoveryCodes.parse(confirmed.json()).recovery_codes };
  }

  /** A browser that has proven the password: the login answered { two_factor: true } and no session. */
  async function pendingSignIn(user: UserRow): Promise<TestAgent> {
    const browser = new TestAgent(t.app, uniqueAddress());
    const login = await browser.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toEqual({ two_factor: true });
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    expect(browser.cookie(TWO_FACTOR_CHALLENGE_COOKIE)).toBeTruthy();
    return browser;
  }

  const statusOf = async (agent: TestAgent) =>
    TwoFactorStatus.parse((await agent.get('/api/user/two-factor-authentication')).json()).data;

  describe('turning it on and off', () => {
    it('hands out a pending secret with its QR code only for the right password', async () => {
      const { agent, user } = await signedInAgent(t.app);
      const wrong = await agent.post('/api/user/two-factor-authentication', { password: 'not mine at all' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.password).toEqual(['This is not your current password.']);
      expect(await statusOf(agent)).toMatchObject({ confirmed_at: null, pending: false });

      const res = await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
      expect(res.statusCode).toBe(200);
      const setup = TwoFactorSetup.parse(res.json());
      expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
      const url = new URL(setup.otpauth_url);
      expect(url.protocol).toBe('otpauth:');
      expect(url.searchParams.get('secret')).toBe(setup.secret);
      expect(url.searchParams.get('period')).toBe('30');
      expect(decodeURIComponent(url.pathname)).toContain(user.email);
      expect(setup.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
      expect(await statusOf(agent)).toMatchObject({ confirmed_at: null, pending: true });

      // Pending is not on: signing in still opens a session at once.
      const browser = new TestAgent(t.app, uniqueAddress());
      const login = await browser.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(UserResource.parse(login.json()).data.attributes.two_factor_confirmed_at).toBeNull();
      expect(browser.cookie(SESSION_COOKIE)).toBeTruthy();
    });

    it('confirms with a right code only, then answers ten recovery codes and shows how many are left', async () => {
      const { agent } = await signedInAgent(t.app);
      const early = await agent.post('/api/user/confirmed-two-factor-authentication', { code: '123456' });
      expect(early.statusCode).toBe(422);
      expect(early.json().errors.code).toBeDefined();

      const setup = TwoFactorSetup.parse(
        (await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD })).json(),
      );
      const right = codeAt(setup.secret);
      const wrong = right === '000000' ? '111111' : '000000';
      for (const code of [wrong, codeAt(setup.secret, 3), 'abcdef']) {
        const res = await agent.post('/api/user/confirmed-two-factor-authentication', { code });
        expect(res.statusCode, code).toBe(422);
        expect(res.json().errors.code, code).toBeDefined();
      }
      expect((await statusOf(agent)).confirmed_at).toBeNull();

      const res = await agent.post('/api/user/confirmed-two-factor-authentication', { code: right });
      expect(res.statusCode).toBe(200);
      const { recovery_codes } = RecoveryCodes.parse(res.json());
      expect(recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(new Set(recovery_codes).size).toBe(RECOVERY_CODE_COUNT);
      for (const code of recovery_codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

      const me = UserResource.parse((await agent.get('/api/user')).json());
      expect(me.data.attributes.two_factor_confirmed_at).toBe(clock.now().toISOString());
      expect(await statusOf(agent)).toEqual({
        confirmed_at: clock.now().toISOString(),
        pending: false,
        recovery_codes_left: RECOVERY_CODE_COUNT,
        recovery_codes_total: RECOVERY_CODE_COUNT,
      });
      // Turning it on twice is refused; the secret stays the one the app holds.
      const again = await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
      expect(again.statusCode).toBe(422);
    });

    it('keeps a confirmed secret when a setup begun on a page loaded before the confirmation arrives', async () => {
      const { user } = await signedInAgent(t.app);
      // The second tab's account, as it was read before the first tab confirmed.
      const stale = { ...user };
      const { secret } = await t.deps.twoFactor.begin(user, DEFAULT_PASSWORD, {
        ip: uniqueAddress(),
        sessionToken: 'tab',
      });
      await t.deps.twoFactor.confirm(user, codeAt(secret));
      await expect(
        t.deps.twoFactor.begin(stale, DEFAULT_PASSWORD, { ip: uniqueAddress(), sessionToken: 'tab' }),
      ).rejects.toMatchObject({
        errors: { password: [expect.any(String)] },
      });
      nextStep();
      // The app that confirmed still signs in.
      const fresh = (await t.deps.users.findById(user.id))!;
      expect(await t.deps.twoFactor.verifyCode(fresh, codeAt(secret))).toBe(true);
    });

    it('stores the recovery codes only as hashes', async () => {
      const { user, codes } = await enrolled();
      const rows = await t.deps.database.db
        .selectFrom('two_factor_recovery_codes')
        .select('code_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
      const stored = JSON.stringify(rows);
      for (const code of codes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace(/-/g, ''));
      }
    });

    it('regenerates the recovery codes with the password; the old ones stop working', async () => {
      const { agent, user, codes } = await enrolled();
      const wrong = await agent.post('/api/user/two-factor-recovery-codes', { password: 'not mine at all' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.password).toBeDefined();

      const res = await agent.post('/api/user/two-factor-recovery-codes', { password: DEFAULT_PASSWORD });
      expect(res.statusCode).toBe(200);
      const fresh = RecoveryCodes.parse(res.json()).recovery_codes;
      expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
      expect(fresh.filter((c) => codes.includes(c))).toEqual([]);

      const old = await (
        await pendingSignIn(user)
      ).post('/api/two-factor-challenge', {
        recovery_code: codes[0],
      });
      expect(old.statusCode).toBe(422);
      const browser = await pendingSignIn(user);
      const current = await browser.post('/api/two-factor-challenge', { recovery_code: fresh[0] });
      expect(current.statusCode, current.body).toBe(200);
    });

    it('turns off with the password only, by DELETE or by the _method marker; sign-in is one step again', async () => {
      for (const disable of [
        (agent: TestAgent, password: string) =>
          agent.delete('/api/user/two-factor-authentication', { password }),
        (agent: TestAgent, password: string) =>
          agent.post('/api/user/two-factor-authentication', { password, _method: 'delete' }),
      ]) {
        const { agent, user } = await enrolled();
        const wrong = await disable(agent, 'not mine at all');
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().errors.password).toBeDefined();
        expect((await statusOf(agent)).confirmed_at).not.toBeNull();

        const waiting = await pendingSignIn(user);
        expect((await disable(agent, DEFAULT_PASSWORD)).statusCode).toBe(204);
        expect(await statusOf(agent)).toMatchObject({
          confirmed_at: null,
          pending: false,
          recovery_codes_left: 0,
        });
        // A sign-in that was waiting for a code cannot finish any more.
        const late = await waiting.post('/api/two-factor-challenge', { code: '123456' });
        expect(late.statusCode).toBe(422);
        expect(waiting.cookie(SESSION_COOKIE)).toBeUndefined();

        const browser = new TestAgent(t.app, uniqueAddress());
        const login = await browser.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
        expect(UserResource.safeParse(login.json()).success).toBe(true);
        expect(browser.cookie(SESSION_COOKIE)).toBeTruthy();
      }
    });

    it('counts wrong passwords with sign-in failures: 429 on the password field', async () => {
      const { agent } = await signedInAgent(t.app);
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_MINUTE; i++) {
        const res = await agent.post('/api/user/two-factor-authentication', { password: `wrong ${i}` });
        expect(res.statusCode).toBe(422);
      }
      const res = await agent.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.json().errors.password).toBeDefined();
    });

    it('needs a session for every call', async () => {
      const anonymous = new TestAgent(t.app);
      for (const [method, url] of [
        ['GET', '/api/user/two-factor-authentication'],
        ['POST', '/api/user/two-factor-authentication'],
        ['DELETE', '/api/user/two-factor-authentication'],
        ['POST', '/api/user/confirmed-two-factor-authentication'],
        ['POST', '/api/user/two-factor-recovery-codes'],
      ] as const) {
        const res = await anonymous.request(method, url, { password: DEFAULT_PASSWORD, code: '123456' });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });
  });

  describe('the sign-in challenge', () => {
    it('opens no session before the code; the right code opens one and ends the challenge', async () => {
      const { user, secret } = await enrolled();
      const browser = await pendingSignIn(user);
      expect((await browser.get('/api/user')).statusCode).toBe(401);

      const res = await browser.post('/api/two-factor-challenge', { code: codeAt(secret) });
      expect(res.statusCode, res.body).toBe(200);
      expect(UserResource.parse(res.json()).data.id).toBe(user.id);
      expect(browser.cookie(SESSION_COOKIE)).toBeTruthy();
      expect(browser.cookie(TWO_FACTOR_CHALLENGE_COOKIE)).toBeUndefined();
      expect((await browser.get('/api/user')).json().data.id).toBe(user.id);
    });

    it('opens no session once the password its sign-in proved was replaced, by its owner or an admin', async () => {
      const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
      const replacements = [
        (agent: TestAgent) =>
          agent.post('/api/user/password', {
            current_password: DEFAULT_PASSWORD,
            password: 'a brand new password',
            password_confirmation: 'a brand new password',
          }),
        (_agent: TestAgent, user: UserRow) =>
          admin.agent.post(`/api/admin/users/${user.id}/password`, {
            password: 'a brand new password',
            password_confirmation: 'a brand new password',
          }),
      ];
      for (const replace of replacements) {
        const { agent, user, secret } = await enrolled();
        // Someone who had the old password waits at the code step while it is replaced.
        const intruder = await pendingSignIn(user);
        expect((await replace(agent, user)).statusCode).toBe(204);
        const res = await intruder.post('/api/two-factor-challenge', { code: codeAt(secret) });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors.code).toEqual(['This sign-in has expired. Sign in again.']);
        expect(intruder.cookie(SESSION_COOKIE)).toBeUndefined();
      }
    });

    it('refuses a wrong code and a code whose time step was already used', async () => {
      const { user, secret } = await enrolled();
      const browser = await pendingSignIn(user);
      const code = codeAt(secret);
      const wrong = await browser.post('/api/two-factor-challenge', {
        code: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.code).toBeDefined();
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
      expect((await browser.post('/api/two-factor-challenge', { code })).statusCode).toBe(200);

      // The same code in another browser, within the same 30 seconds: refused.
      const replay = await (await pendingSignIn(user)).post('/api/two-factor-challenge', { code });
      expect(replay.statusCode).toBe(422);
      // A code of the step before cannot be played after a later one either.
      const before = codeAt(secret, -1);
      expect(
        (await (await pendingSignIn(user)).post('/api/two-factor-challenge', { code: before })).statusCode,
      ).toBe(422);
      nextStep();
      const later = await (
        await pendingSignIn(user)
      ).post('/api/two-factor-challenge', { code: codeAt(secret) });
      expect(later.statusCode).toBe(200);
    });

    it('takes a code of the step before or after (clock drift), none further off', async () => {
      const { user, secret } = await enrolled();
      const browser = await pendingSignIn(user);
      expect((await browser.post('/api/two-factor-challenge', { code: codeAt(secret, 2) })).statusCode).toBe(
        422,
      );
      expect((await browser.post('/api/two-factor-challenge', { code: codeAt(secret, 1) })).statusCode).toBe(
        200,
      );
    });

    it('lets each recovery code in once and counts what is left', async () => {
      const { agent, user, codes } = await enrolled();
      const browser = await pendingSignIn(user);
      // Typed in capitals and without dashes, as someone reading a printout might.
      const typed = codes[3]!.toUpperCase().replace(/-/g, '');
      const res = await browser.post('/api/two-factor-challenge', { recovery_code: typed });
      expect(res.statusCode, res.body).toBe(200);
      expect(browser.cookie(SESSION_COOKIE)).toBeTruthy();
      expect((await statusOf(agent)).recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);

      const again = await (
        await pendingSignIn(user)
      ).post('/api/two-factor-challenge', {
        recovery_code: codes[3],
      });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors.recovery_code).toBeDefined();
      expect((await statusOf(agent)).recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
    });

    it('answers 429 after five wrong answers a minute, even with the right code and from another address', async () => {
      const { user, secret } = await enrolled();
      const browser = await pendingSignIn(user);
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_MINUTE; i++) {
        const res = await browser.post('/api/two-factor-challenge', { recovery_code: `wrong-${i}` });
        expect(res.statusCode).toBe(422);
      }
      const blocked = await browser.post('/api/two-factor-challenge', { code: codeAt(secret) });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errors.code).toBeDefined();
      // The count is the account's: a second browser elsewhere is held back too.
      const elsewhere = await pendingSignIn(user);
      expect((await elsewhere.post('/api/two-factor-challenge', { code: codeAt(secret) })).statusCode).toBe(
        429,
      );
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it(`lapses after ${TWO_FACTOR_CHALLENGE_MINUTES} minutes`, async () => {
      const { user, secret } = await enrolled();
      const browser = await pendingSignIn(user);
      clock.advanceSeconds(TWO_FACTOR_CHALLENGE_MINUTES * 60 + 1);
      const res = await browser.post('/api/two-factor-challenge', { code: codeAt(secret) });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.code).toEqual(['This sign-in has expired. Sign in again.']);
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('refuses a challenge without its cookie, or with a made-up one', async () => {
      const { user, secret } = await enrolled();
      await pendingSignIn(user);
      const stranger = new TestAgent(t.app, uniqueAddress());
      expect((await stranger.post('/api/two-factor-challenge', { code: codeAt(secret) })).statusCode).toBe(
        422,
      );
      stranger.setCookie(TWO_FACTOR_CHALLENGE_COOKIE, 'made-up');
      expect((await stranger.post('/api/two-factor-challenge', { code: codeAt(secret) })).statusCode).toBe(
        422,
      );
      expect(stranger.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('refuses a body with neither a code nor a recovery code', async () => {
      const { user } = await enrolled();
      const browser = await pendingSignIn(user);
      for (const body of [{}, { code: '12345' }, { code: '123456', recovery_code: 'abcd' }]) {
        const res = await browser.post('/api/two-factor-challenge', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(422);
      }
    });

    it('keeps the sign-in of a user without two-factor authentication one step', async () => {
      const { user } = await createUser(t.deps);
      const browser = new TestAgent(t.app, uniqueAddress());
      const login = await browser.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(UserResource.parse(login.json()).data.id).toBe(user.id);
      expect(browser.cookie(TWO_FACTOR_CHALLENGE_COOKIE)).toBeUndefined();
    });
  });
});
