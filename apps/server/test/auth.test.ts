import {
  LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE,
  LOGIN_MAX_FAILURES_PER_MINUTE,
  UserResource,
} from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/plugins/session.plugin';
import { SIGNED_IN_COOKIE } from '@atelier/contracts';
import { TestAgent, uniqueAddress } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

describeEachDatabase('accounts and sessions', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true });
  });
  afterAll(() => t.close());

  describe('register', () => {
    it('creates the account and signs it in', async () => {
      const agent = new TestAgent(t.app, uniqueAddress());
      const res = await agent.post('/api/register', {
        name: 'Ada Lovelace',
        email: 'Ada@Example.test',
        password: 'analytical engine',
        password_confirmation: 'analytical engine',
      });
      expect(res.statusCode).toBe(201);
      const body = UserResource.parse(res.json());
      expect(body.data.attributes).toMatchObject({ email: 'ada@example.test', role: 'user', letter: 'A' });
      expect(agent.cookie(SESSION_COOKIE)).toBeTruthy();
      const me = await agent.get('/api/user');
      expect(me.statusCode).toBe(200);
      expect(me.json().data.id).toBe(body.data.id);
    });

    it('stores the password as an argon2id hash, never in clear', async () => {
      const row = await t.deps.users.findByEmail('ada@example.test');
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('refuses a taken e-mail and a mismatched confirmation with field errors', async () => {
      const agent = new TestAgent(t.app, uniqueAddress());
      const taken = await agent.post('/api/register', {
        name: 'Other',
        email: 'ada@example.test',
        password: 'something long',
        password_confirmation: 'something long',
      });
      expect(taken.statusCode).toBe(422);
      expect(taken.json().errors.email).toEqual(['This e-mail address is already registered.']);

      const mismatch = await agent.post('/api/register', {
        name: 'Bob',
        email: 'bob@example.test',
        password: 'something long',
        password_confirmation: 'something else',
      });
      expect(mismatch.statusCode).toBe(422);
      expect(mismatch.json()).toMatchObject({
        code: 'validation_failed',
        errors: { password_confirmation: [expect.any(String)] },
      });
      expect(await t.deps.users.findByEmail('bob@example.test')).toBeUndefined();
    });

    it('lets only one of two simultaneous sign-ups with the same e-mail through', async () => {
      const body = {
        name: 'Twin',
        email: 'twin@example.test',
        password: 'same secret',
        password_confirmation: 'same secret',
      };
      const answers = await Promise.all([
        new TestAgent(t.app, uniqueAddress()).post('/api/register', body),
        new TestAgent(t.app, uniqueAddress()).post('/api/register', body),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 422]);
      const rows = await t.deps.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'twin@example.test')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('answers 403 while registration is off', async () => {
      await t.deps.settings.set({ registration: false });
      const res = await new TestAgent(t.app, uniqueAddress()).post('/api/register', {
        name: 'Carol',
        email: 'carol@example.test',
        password: 'something long',
        password_confirmation: 'something long',
      });
      await t.deps.settings.set({ registration: true });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('registration_disabled');
    });
  });

  describe('sign-in', () => {
    it('signs in with the right password and rotates the session id', async () => {
      const { user } = await createUser(t.deps, { name: 'Grace' });
      const agent = new TestAgent(t.app, uniqueAddress());
      const first = await agent.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(first.statusCode).toBe(200);
      expect(first.json().data.attributes.email).toBe(user.email);
      const firstSession = agent.cookie(SESSION_COOKIE);

      const again = await agent.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(again.statusCode).toBe(200);
      const secondSession = agent.cookie(SESSION_COOKIE);
      expect(secondSession).toBeTruthy();
      expect(secondSession).not.toBe(firstSession);
      // The web app's readable mark that this browser holds a session.
      expect(agent.cookie(SIGNED_IN_COOKIE)).toBe('1');

      // The previous session id no longer signs anyone in.
      const stale = new TestAgent(t.app, uniqueAddress());
      stale.setCookie(SESSION_COOKIE, firstSession!);
      expect((await stale.get('/api/user')).statusCode).toBe(401);
    });

    it('starts no session for a sign-in whose password was reset while it was being checked', async () => {
      const { user } = await createUser(t.deps);
      // The sign-in has read the account and proved the old password; the reset commits meanwhile.
      const { user: proven } = await t.deps.auth.authenticate(
        { email: user.email, password: DEFAULT_PASSWORD },
        { ip: uniqueAddress() },
      );
      await t.deps.auth.replacePassword(user.id, 'a brand new password');
      await t.deps.sessions.destroyAllFor(user.id);
      await expect(t.deps.sessions.create(proven, { ip: null, userAgent: null })).rejects.toMatchObject({
        code: 'invalid_credentials',
      });
      const left = await t.deps.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(left).toEqual([]);
      // Signed in with the new password, a session starts as ever.
      const agent = new TestAgent(t.app, uniqueAddress());
      expect(
        (await agent.post('/api/login', { email: user.email, password: 'a brand new password' })).statusCode,
      ).toBe(200);
    });

    it('sets the session cookie httpOnly and SameSite=Lax', async () => {
      const { user } = await createUser(t.deps);
      const res = await new TestAgent(t.app, uniqueAddress()).post('/api/login', {
        email: user.email,
        password: DEFAULT_PASSWORD,
      });
      const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    });

    it('refuses a wrong password with 422 and no session', async () => {
      const { user } = await createUser(t.deps);
      const agent = new TestAgent(t.app, uniqueAddress());
      const res = await agent.post('/api/login', { email: user.email, password: 'not the password' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'invalid_credentials',
        errors: { email: [expect.any(String)] },
      });
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it(`answers 429 after ${LOGIN_MAX_FAILURES_PER_MINUTE} failures a minute, even with the right password`, async () => {
      const { user } = await createUser(t.deps);
      const agent = new TestAgent(t.app, uniqueAddress());
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_MINUTE; i++) {
        expect((await agent.post('/api/login', { email: user.email, password: 'wrong' })).statusCode).toBe(
          422,
        );
      }
      const locked = await agent.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().code).toBe('throttled');
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('counts before checking: of 30 parallel wrong passwords only 5 are checked, the rest answer 429', async () => {
      const { user } = await createUser(t.deps);
      const agent = new TestAgent(t.app, uniqueAddress());
      await agent.get('/api/ping');
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => agent.post('/api/login', { email: user.email, password: 'wrong' })),
      );
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 422)).toHaveLength(LOGIN_MAX_FAILURES_PER_MINUTE);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LOGIN_MAX_FAILURES_PER_MINUTE);
    });

    it(`throttles an address after ${LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE} failures a minute, whatever the e-mails`, async () => {
      const address = uniqueAddress();
      const agent = new TestAgent(t.app, address);
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_PER_MINUTE; i++) {
        const res = await agent.post('/api/login', { email: `nobody-${i}@example.test`, password: 'guess' });
        expect(res.statusCode).toBe(422);
      }
      const flooded = await agent.post('/api/login', { email: 'one-more@example.test', password: 'guess' });
      expect(flooded.statusCode).toBe(429);
      const elsewhere = new TestAgent(t.app, uniqueAddress());
      const res = await elsewhere.post('/api/login', { email: 'one-more@example.test', password: 'guess' });
      expect(res.statusCode).toBe(422);
    });

    it('throttles per e-mail and address: another account from the same address still signs in', async () => {
      const { user: victim } = await createUser(t.deps);
      const { user: other } = await createUser(t.deps);
      const agent = new TestAgent(t.app, uniqueAddress());
      for (let i = 0; i <= LOGIN_MAX_FAILURES_PER_MINUTE; i++)
        await agent.post('/api/login', { email: victim.email, password: 'x' });
      expect(
        (await agent.post('/api/login', { email: other.email, password: DEFAULT_PASSWORD })).statusCode,
      ).toBe(200);
    });
  });

  describe('XSRF', () => {
    it('answers 419 to a state change from a cookie session without the header', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post(
        '/api/user/settings',
        { _method: 'patch', name: 'theme_mode', value: 'dark' },
        { xsrf: false },
      );
      expect(res.statusCode).toBe(419);
      expect(res.json()).toEqual({ message: 'CSRF token mismatch.', code: 'csrf_mismatch' });
    });

    it('answers 419, not 500, to a header that is not valid percent-encoding', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post('/logout', undefined, {
        xsrf: false,
        headers: { 'x-xsrf-token': '%E0%A4%A' },
      });
      expect(res.statusCode).toBe(419);
    });

    it("binds the token to the session: another session's token is refused and replaced", async () => {
      const { agent: ann } = await signedInAgent(t.app);
      const { agent: bob } = await signedInAgent(t.app);
      const annToken = ann.cookie('XSRF-TOKEN')!;
      bob.setCookie('XSRF-TOKEN', annToken);
      const res = await bob.post('/api/user/settings', {
        _method: 'patch',
        name: 'theme_mode',
        value: 'dark',
      });
      expect(res.statusCode).toBe(419);
      expect(bob.cookie('XSRF-TOKEN')).not.toBe(annToken);
      // The client's retry with the token it was just handed goes through.
      const retry = await bob.post('/api/user/settings', {
        _method: 'patch',
        name: 'theme_mode',
        value: 'dark',
      });
      expect(retry.statusCode).toBe(204);
    });

    it('rotates the token at sign-in: the one held before no longer works', async () => {
      const { user } = await createUser(t.deps);
      const agent = new TestAgent(t.app, uniqueAddress());
      await agent.get('/api/ping');
      const before = agent.cookie('XSRF-TOKEN')!;
      expect(
        (await agent.post('/api/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
      ).toBe(200);
      expect(agent.cookie('XSRF-TOKEN')).not.toBe(before);
      const stale = await agent.post('/logout', undefined, {
        xsrf: false,
        headers: { 'x-xsrf-token': before },
      });
      expect(stale.statusCode).toBe(419);
    });

    it('answers 419 when the header does not match the cookie', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post('/logout', undefined, {
        xsrf: false,
        headers: { 'x-xsrf-token': 'forged' },
      });
      expect(res.statusCode).toBe(419);
      expect((await agent.get('/api/user')).statusCode).toBe(200);
    });

    it('hands out a readable XSRF-TOKEN cookie', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/ping' });
      const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
      // A nonce and its session-bound HMAC.
      expect(cookie?.value).toMatch(/^[\w-]{20,}\.[\w-]{20,}$/);
      expect(cookie?.httpOnly).toBeFalsy();
    });
  });

  describe('logout', () => {
    it('destroys the session server-side', async () => {
      const { agent } = await signedInAgent(t.app);
      const session = agent.cookie(SESSION_COOKIE)!;
      const res = await agent.post('/logout');
      expect(res.statusCode).toBe(204);
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
      expect(agent.cookie(SIGNED_IN_COOKIE)).toBeUndefined();
      const replay = new TestAgent(t.app, uniqueAddress());
      replay.setCookie(SESSION_COOKIE, session);
      expect((await replay.get('/api/user')).statusCode).toBe(401);
    });
  });

  describe('GET /api/user', () => {
    it('answers 401 without a session', async () => {
      const res = await new TestAgent(t.app, uniqueAddress()).get('/api/user');
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthenticated');
    });

    it('returns the user resource with limits computed from the settings', async () => {
      await t.deps.settings.set({ storage_limitation: true, default_storage_gb: 7, default_team_members: 3 });
      const { user } = await createUser(t.deps, {
        name: 'margaret Hamilton',
        createdAt: '2023-05-01T10:00:00.000Z',
      });
      const { agent } = await signedInAgent(t.app, user);
      const res = await agent.get('/api/user');
      expect(res.statusCode).toBe(200);
      const body = UserResource.parse(res.json());
      expect(body.data.attributes).toMatchObject({
        name: 'margaret Hamilton',
        letter: 'M',
        role: 'user',
        dateStatus: true,
      });
      expect(body.data.attributes.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(body.data.relationships.settings.data.attributes).toMatchObject({
        theme_mode: 'system',
        emoji_type: 'twemoji',
      });
      expect(body.meta.limitations).toEqual({
        max_team_members: { total: 3, use: 0 },
        max_storage_amount: { total: 7_000_000_000, use: 0 },
      });
      expect(body.meta.restrictions).toEqual({
        canUpload: true,
        canDownload: true,
        canCreateFolder: true,
        canCreateTeamFolder: true,
        reason: null,
      });
    });

    it('carries the unread notifications the bell counts', async () => {
      const { agent, user } = await signedInAgent(t.app);
      await t.deps.notifications.notify(user.id, {
        category: 'gift',
        title: 'A gift',
        description: 'You got 5 GB',
      });
      const body = (await agent.get('/api/user')).json();
      expect(body.data.relationships.unreadNotifications.data).toHaveLength(1);
      expect(body.data.relationships.readNotifications.data).toEqual([]);
    });

    it('flags accounts created from 19 March 2024 on with dateStatus false', async () => {
      const { user } = await createUser(t.deps, { createdAt: '2024-03-19T00:00:00.000Z' });
      const { agent } = await signedInAgent(t.app, user);
      expect((await agent.get('/api/user')).json().data.attributes.dateStatus).toBe(false);
    });

    it('restricts uploads with a reason once the capacity is used up', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 0 });
      const { agent } = await signedInAgent(t.app, user);
      const meta = (await agent.get('/api/user')).json().meta;
      expect(meta.restrictions.canUpload).toBe(false);
      expect(meta.restrictions.reason).toMatch(/storage is full/i);
    });

    it('reports no capacity when storage limitation is off', async () => {
      await t.deps.settings.set({ storage_limitation: false, default_team_members: 0 });
      const { agent } = await signedInAgent(t.app);
      const meta = (await agent.get('/api/user')).json().meta;
      await t.deps.settings.set({ storage_limitation: true, default_team_members: -1 });
      expect(meta.limitations.max_storage_amount.total).toBeNull();
      expect(meta.restrictions.canCreateTeamFolder).toBe(false);
    });
  });

  describe('POST /api/user/settings with the method marker', () => {
    it('stores theme_mode through POST + _method patch', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post('/api/user/settings', {
        _method: 'patch',
        name: 'theme_mode',
        value: 'dark',
      });
      expect(res.statusCode).toBe(204);
      const me = (await agent.get('/api/user')).json();
      expect(me.data.relationships.settings.data.attributes.theme_mode).toBe('dark');
    });

    it('accepts the plain PATCH verb too', async () => {
      const { agent } = await signedInAgent(t.app);
      expect(
        (await agent.patch('/api/user/settings', { name: 'emoji_type', value: 'applemoji' })).statusCode,
      ).toBe(204);
      const me = (await agent.get('/api/user')).json();
      expect(me.data.relationships.settings.data.attributes.emoji_type).toBe('applemoji');
    });

    it('refuses a POST without the marker and leaves the setting alone', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post('/api/user/settings', { name: 'theme_mode', value: 'light' });
      expect(res.statusCode).toBe(405);
      const me = (await agent.get('/api/user')).json();
      expect(me.data.relationships.settings.data.attributes.theme_mode).toBe('system');
    });

    it('refuses an unknown value with 422', async () => {
      const { agent } = await signedInAgent(t.app);
      const res = await agent.post('/api/user/settings', {
        _method: 'patch',
        name: 'theme_mode',
        value: 'neon',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.value).toBeDefined();
    });

    it('stores a language the instance has, refuses an unknown one and clears it with an empty value', async () => {
      await t.deps.languages.add({ locale: 'fr', name: 'Français' });
      const { agent } = await signedInAgent(t.app);
      const locale = async () =>
        (await agent.get('/api/user')).json().data.relationships.settings.data.attributes.locale;
      const save = (value: string) =>
        agent.post('/api/user/settings', { _method: 'patch', name: 'locale', value });
      expect(await locale()).toBeNull();

      expect((await save('fr')).statusCode).toBe(204);
      expect(await locale()).toBe('fr');

      const unknown = await save('xx');
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors.value).toEqual([
        'This language does not exist. Add it in the language editor first.',
      ]);
      expect(await locale()).toBe('fr');

      expect((await save('')).statusCode).toBe(204);
      expect(await locale()).toBeNull();
    });
  });
});
