import { APP_PASSWORDS_MAX, AppPasswordList, CreatedAppPassword } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { hashPassword } from '../../src/lib/passwords';
import { LoginThrottle } from '../../src/modules/auth/login-throttle';
import { TestAgent, uniqueAddress } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { pauseOnce } from '../support/latch';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

const DISPLAYED = /^[a-km-np-z2-9]{6}(-[a-km-np-z2-9]{6}){3}$/;

describeEachDatabase('app passwords', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  let agent: TestAgent;
  let user: UserRow;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, redis: true, clock: clock.now });
    ({ agent, user } = await signedInAgent(t.app));
  });
  afterAll(() => t.close());

  const create = async (as: TestAgent, name: string): Promise<CreatedAppPassword> => {
    const answer = await as.post('/api/user/app-passwords', { name });
    expect(answer.statusCode, answer.body).toBe(201);
    return CreatedAppPassword.parse(answer.json());
  };
  const list = async (as: TestAgent) => {
    const answer = await as.get('/api/user/app-passwords');
    expect(answer.statusCode).toBe(200);
    return { body: answer.body, data: AppPasswordList.parse(answer.json()).data };
  };
  const storedRows = (userId: string) =>
    t.deps.database.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).execute();

  it('creates one shown once: listed by name with its dates, never with the password again', async () => {
    const created = await create(agent, '  Laptop backup  ');
    expect(created.name).toBe('Laptop backup');
    expect(created.password).toMatch(DISPLAYED);

    const { body, data } = await list(agent);
    expect(data).toEqual([
      {
        id: created.id,
        type: 'app_password',
        attributes: { name: 'Laptop backup', created_at: clock.now().toISOString(), last_used_at: null },
      },
    ]);
    const [row] = await storedRows(user.id);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    for (const secret of [
      created.password,
      created.password.replaceAll('-', ''),
      row!.password_hash,
      row!.lookup,
    ])
      expect(body).not.toContain(secret);
  });

  it('answers the creation uncached', async () => {
    const answer = await agent.post('/api/user/app-passwords', { name: 'Phone' });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('refuses a blank or too long name and more than the cap, storing nothing', async () => {
    const { user: fresh, agent: owner } = await signedInAgent(t.app);
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const answer = await owner.post('/api/user/app-passwords', { name });
      expect(answer.statusCode, name).toBe(422);
      expect(answer.json().errors.name).toHaveLength(1);
    }
    expect(await storedRows(fresh.id)).toEqual([]);

    expect((await owner.post('/api/user/app-passwords', { name: 'x'.repeat(100) })).statusCode).toBe(201);
    const hash = await hashPassword('never used');
    await t.deps.database.db
      .insertInto('app_passwords')
      .values(
        Array.from({ length: APP_PASSWORDS_MAX - 1 }, (_, i) => ({
          id: randomUUID(),
          user_id: fresh.id,
          name: `script ${i}`,
          lookup: 'aaaaaa',
          password_hash: hash,
          created_at: clock.now().toISOString(),
          last_used_at: null,
        })),
      )
      .execute();
    const over = await owner.post('/api/user/app-passwords', { name: 'one too many' });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.name[0]).toContain(String(APP_PASSWORDS_MAX));
    expect(await storedRows(fresh.id)).toHaveLength(APP_PASSWORDS_MAX);
  });

  it('revokes only the user’s own: someone else’s and unknown ids are 404 and nothing changes', async () => {
    const { agent: other, user: otherUser } = await signedInAgent(t.app);
    const theirs = await create(other, 'Theirs');
    const mine = await create(agent, 'Mine');

    for (const id of [theirs.id, randomUUID(), 'not-an-id']) {
      const answer = await agent.delete(`/api/user/app-passwords/${id}`);
      expect(answer.statusCode, id).toBe(404);
    }
    expect((await list(other)).data.map((entry) => entry.id)).toEqual([theirs.id]);
    expect((await storedRows(otherUser.id)).map((row) => row.id)).toEqual([theirs.id]);
    expect((await list(agent)).body).not.toContain(theirs.id);

    expect((await agent.delete(`/api/user/app-passwords/${mine.id}`)).statusCode).toBe(204);
    expect((await list(agent)).data.map((entry) => entry.id)).not.toContain(mine.id);
    expect((await agent.delete(`/api/user/app-passwords/${mine.id}`)).statusCode).toBe(404);
  });

  it('signs in with the e-mail and an app password, however typed, never with the account password', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const { password } = await create(web, 'WebDAV');
    const ip = uniqueAddress();
    const { appPasswords } = t.deps;

    for (const typed of [password, password.replaceAll('-', ''), password.toUpperCase(), ` ${password} `])
      expect((await appPasswords.authenticate(owner.email.toUpperCase(), typed, ip))?.id, typed).toBe(
        owner.id,
      );
    expect(await appPasswords.authenticate(owner.email, DEFAULT_PASSWORD, ip)).toBeNull();
    expect(await appPasswords.authenticate(user.email, password, ip)).toBeNull();
    const mistyped = password.slice(0, -1) + (password.endsWith('a') ? 'b' : 'a');
    expect(await appPasswords.authenticate(owner.email, mistyped, ip)).toBeNull();
  });

  it('never signs in to the web app', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const { password } = await create(web, 'Script');
    const login = await new TestAgent(t.app, uniqueAddress()).post('/api/login', {
      email: owner.email,
      password,
    });
    expect(login.statusCode).toBe(422);
    expect(login.cookies.find((cookie) => cookie.name === 'atelier_session')).toBeUndefined();
  });

  it('refuses a revoked one at once, though it was just verified', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const created = await create(web, 'Revoked soon');
    const ip = uniqueAddress();
    expect((await t.deps.appPasswords.authenticate(owner.email, created.password, ip))?.id).toBe(owner.id);
    expect((await web.delete(`/api/user/app-passwords/${created.id}`)).statusCode).toBe(204);
    expect(await t.deps.appPasswords.authenticate(owner.email, created.password, ip)).toBeNull();
  });

  it('refuses one revoked while a check of it that a request joined was under way', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const created = await create(web, 'Revoked mid-check');
    const ip = uniqueAddress();
    const { paused, go, restore } = pauseOnce(LoginThrottle.prototype, 'begin', 'before');
    try {
      const first = t.deps.appPasswords.authenticate(owner.email, created.password, ip);
      await paused;
      expect((await web.delete(`/api/user/app-passwords/${created.id}`)).statusCode).toBe(204);
      // Sent once the password is gone, and joining the check still under way.
      const second = t.deps.appPasswords.authenticate(owner.email, created.password, ip);
      go();
      expect((await first)?.id).toBe(owner.id);
      expect(await second).toBeNull();
    } finally {
      restore();
    }
  });

  it('goes with a replaced password, with the reset links out: changed by its owner, or set by an admin', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const { agent: admin } = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    const ip = uniqueAddress();
    const resetLinks = async () =>
      (await t.deps.database.db.selectFrom('password_resets').select('user_id').execute()).filter(
        (row) => row.user_id === owner.id,
      ).length;

    const first = await create(web, 'Sync client');
    await t.deps.auth.mailPasswordReset(owner.email);
    expect(await resetLinks()).toBe(1);
    const changed = await web.post('/api/user/password', {
      current_password: DEFAULT_PASSWORD,
      password: 'a password of my own',
      password_confirmation: 'a password of my own',
    });
    expect(changed.statusCode).toBe(204);
    expect(await t.deps.appPasswords.authenticate(owner.email, first.password, ip)).toBeNull();
    expect(await resetLinks()).toBe(0);

    const second = await create(web, 'Another client');
    const set = await admin.post(`/api/admin/users/${owner.id}/password`, {
      password: 'set by the admin',
      password_confirmation: 'set by the admin',
    });
    expect(set.statusCode, set.body).toBe(204);
    expect(await t.deps.appPasswords.authenticate(owner.email, second.password, ip)).toBeNull();
    expect(await storedRows(owner.id)).toEqual([]);
  });

  it('is throttled with sign-in: after 5 failures a minute the 6th is 429, for the web sign-in too', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const { password } = await create(web, 'Throttled');
    const ip = uniqueAddress();
    for (let i = 0; i < 5; i += 1)
      expect(
        await t.deps.appPasswords.authenticate(owner.email, 'aaaaaa-bbbbbb-cccccc-dddddd', ip),
      ).toBeNull();
    await expect(t.deps.appPasswords.authenticate(owner.email, password, ip)).rejects.toMatchObject({
      code: 'throttled',
    });
    const login = await new TestAgent(t.app, ip).post('/api/login', {
      email: owner.email,
      password: DEFAULT_PASSWORD,
    });
    expect(login.statusCode).toBe(429);
    // Another address is not held back by these failures.
    expect((await t.deps.appPasswords.authenticate(owner.email, password, uniqueAddress()))?.id).toBe(
      owner.id,
    );
  });

  it('signs in a sync client’s requests sent at once, however many, as its verification expires: none throttled', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const { password } = await create(web, 'Desktop');
    const ip = uniqueAddress();
    // A client's parallel connections (six to eight), as a minute after the last verification.
    for (let minute = 0; minute < 2; minute += 1) {
      const signedIn = await Promise.all(
        Array.from({ length: 8 }, () => t.deps.appPasswords.authenticate(owner.email, password, ip)),
      );
      expect(signedIn.map((signed) => signed?.id)).toEqual(Array(8).fill(owner.id));
      clock.advanceSeconds(61);
    }
    // Guesses still count one by one: five wrong ones, and the sixth attempt is refused.
    for (let i = 0; i < 5; i += 1)
      expect(
        await t.deps.appPasswords.authenticate(owner.email, `aaaaaa-bbbbbb-cccccc-ddddd${i + 2}`, ip),
      ).toBeNull();
    await expect(t.deps.appPasswords.authenticate(owner.email, password, ip)).rejects.toMatchObject({
      code: 'throttled',
    });
  });

  it('records when it was last used, at most once a minute', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const created = await create(web, 'Used');
    const ip = uniqueAddress();
    const lastUsed = async () =>
      (await list(web)).data.find((e) => e.id === created.id)!.attributes.last_used_at;

    const first = clock.now().toISOString();
    await t.deps.appPasswords.authenticate(owner.email, created.password, ip);
    expect(await lastUsed()).toBe(first);
    clock.advanceSeconds(30);
    await t.deps.appPasswords.authenticate(owner.email, created.password, ip);
    expect(await lastUsed()).toBe(first);
    clock.advanceSeconds(31);
    await t.deps.appPasswords.authenticate(owner.email, created.password, ip);
    expect(await lastUsed()).toBe(clock.now().toISOString());
  });

  it('reuses a verification for a minute at most, then checks the stored hash again', async () => {
    const { user: owner, agent: web } = await signedInAgent(t.app);
    const created = await create(web, 'Cached');
    const ip = uniqueAddress();
    expect((await t.deps.appPasswords.authenticate(owner.email, created.password, ip))?.id).toBe(owner.id);
    // A hash that no longer matches: only the remembered verification can still let it in.
    await t.deps.database.db
      .updateTable('app_passwords')
      .set({ password_hash: await hashPassword('something else') })
      .where('id', '=', created.id)
      .execute();
    clock.advanceSeconds(59);
    expect((await t.deps.appPasswords.authenticate(owner.email, created.password, ip))?.id).toBe(owner.id);
    clock.advanceSeconds(2);
    expect(await t.deps.appPasswords.authenticate(owner.email, created.password, ip)).toBeNull();
  });
});
