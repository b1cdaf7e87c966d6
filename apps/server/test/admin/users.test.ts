import { AdminDashboard, AdminUserDetail, AdminUserList, AuditList, UserResource } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { GIGABYTE } from '../../src/modules/settings/settings.defaults';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploadFile } from '../files/files-harness';

describeEachDatabase('admin: users', (kind) => {
  let t: TestApp;
  let admin: { agent: TestAgent; user: UserRow };

  beforeAll(async () => {
    t = await createTestApp({
      database: kind,
      settings: { storage_limitation: true, default_storage_gb: 5 },
    });
    admin = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Ada Admin', role: 'admin' })).user);
  });
  afterAll(() => t.close());

  const auditActions = async () =>
    AuditList.parse((await admin.agent.get('/api/admin/audit?per_page=100')).json()).data;
  const userResource = async (agent: TestAgent) => UserResource.parse((await agent.get('/api/user')).json());
  const adminsOf = (app: TestApp) =>
    app.deps.database.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();

  it('refuses every admin call to a user with 403', async () => {
    const { agent, user } = await signedInAgent(t.app);
    for (const [method, url] of [
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${user.id}`],
      ['PATCH', `/api/admin/users/${user.id}`],
      ['GET', '/api/admin/audit'],
    ] as const) {
      const answer = await agent.request(method, url, method === 'PATCH' ? { role: 'admin' } : undefined);
      expect(answer.statusCode, url).toBe(403);
    }
    expect((await t.deps.users.findById(user.id))!.role).toBe('user');
  });

  it('creates a verified account that signs in at once, refuses a taken or malformed e-mail, and audits it', async () => {
    const created = await admin.agent.post('/api/admin/users', {
      name: 'Nina New',
      email: 'Nina@Example.test',
      password: 'a long password',
      role: 'user',
      max_storage_amount: 2,
    });
    expect(created.statusCode, created.body).toBe(201);
    const resource = UserResource.parse(created.json());
    expect(resource.data.attributes).toMatchObject({
      name: 'Nina New',
      email: 'nina@example.test',
      role: 'user',
    });
    expect(resource.data.attributes.email_verified_at).not.toBeNull();
    expect(resource.meta.limitations.max_storage_amount.total).toBe(2 * GIGABYTE);

    const signIn = await new TestAgent(t.app).post('/api/login', {
      email: 'nina@example.test',
      password: 'a long password',
    });
    expect(signIn.statusCode, signIn.body).toBe(200);

    for (const [body, field] of [
      [{ name: 'Twin', email: 'nina@example.test', password: 'a long password' }, 'email'],
      [{ name: 'Bad', email: 'not-an-address', password: 'a long password' }, 'email'],
      [{ name: '', email: 'empty@example.test', password: 'a long password' }, 'name'],
      [{ name: 'Short', email: 'short@example.test', password: 'short' }, 'password'],
      [
        { name: 'Huge', email: 'huge@example.test', password: 'a long password', max_storage_amount: -1 },
        'max_storage_amount',
      ],
    ] as const) {
      const refused = await admin.agent.post('/api/admin/users', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(refused.json().errors).toHaveProperty(field);
    }
    expect(await t.deps.users.findByEmail('empty@example.test')).toBeUndefined();

    const [entry] = await auditActions();
    expect(entry).toMatchObject({
      action: 'user.created',
      actor: { id: admin.user.id, name: 'Ada Admin' },
      target: { id: resource.data.id, name: 'Nina New' },
      details: { email: 'nina@example.test', role: 'user', max_storage_amount: 2 },
    });
    expect(JSON.stringify(entry)).not.toContain('a long password');
  });

  it('lists users with search, role filter, sort, pages and each one’s storage', async () => {
    const prefix = `list-${randomBytes(3).toString('hex')}`;
    const listed: Record<string, UserRow> = {};
    for (const [name, role] of [
      ['Bea', 'user'],
      ['Cid', 'admin'],
      ['Abe', 'user'],
    ] as const)
      listed[name] = (
        await createUser(t.deps, {
          name: `${name} ${prefix}`,
          email: `${name.toLowerCase()}.${prefix}@example.test`,
          role,
        })
      ).user;
    for (const [name, bytes] of [
      ['Cid', 3000],
      ['Bea', 1000],
    ] as const) {
      const { agent } = await signedInAgent(t.app, listed[name]!);
      expect((await uploadFile(agent, randomBytes(bytes), { name: 'kept.bin' })).at(-1)!.statusCode).toBe(
        201,
      );
    }

    const byName = AdminUserList.parse(
      (
        await admin.agent.get(`/api/admin/users?search=${prefix.toUpperCase()}&sort=name&direction=asc`)
      ).json(),
    );
    expect(byName.data.map((u) => u.attributes.name)).toEqual([
      `Abe ${prefix}`,
      `Bea ${prefix}`,
      `Cid ${prefix}`,
    ]);
    expect(byName.data[0]!.meta.usages).toEqual({ used: 0, capacity: 5 * GIGABYTE });

    // By bytes used, the page cut after the sort: the files module's storage_usage orders it.
    for (const [direction, names] of [
      ['desc', ['Cid', 'Bea']],
      ['asc', ['Abe', 'Bea']],
    ] as const) {
      const byUsage = AdminUserList.parse(
        (
          await admin.agent.get(
            `/api/admin/users?search=${prefix}&sort=used&direction=${direction}&per_page=2`,
          )
        ).json(),
      );
      expect(byUsage.data.map((u) => u.attributes.name)).toEqual(names.map((name) => `${name} ${prefix}`));
      expect(byUsage.data.map((u) => u.meta.usages.used)).toEqual(
        names.map((name) => ({ Cid: 3000, Bea: 1000, Abe: 0 })[name]),
      );
      expect(byUsage.meta.paginate.total).toBe(3);
    }

    const admins = AdminUserList.parse(
      (await admin.agent.get(`/api/admin/users?search=${prefix}&role=admin`)).json(),
    );
    expect(admins.data.map((u) => u.attributes.name)).toEqual([`Cid ${prefix}`]);

    const byEmail = AdminUserList.parse(
      (await admin.agent.get(`/api/admin/users?search=bea.${prefix}`)).json(),
    );
    expect(byEmail.data).toHaveLength(1);

    const paged = AdminUserList.parse(
      (
        await admin.agent.get(`/api/admin/users?search=${prefix}&per_page=2&page=2&sort=name&direction=asc`)
      ).json(),
    );
    expect(paged.data.map((u) => u.attributes.name)).toEqual([`Cid ${prefix}`]);
    expect(paged.meta.paginate).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });

    // A wildcard typed in the search is a character, not a pattern.
    const literal = AdminUserList.parse((await admin.agent.get('/api/admin/users?search=%25')).json());
    expect(literal.data).toEqual([]);
  });

  it('changes name, e-mail and role at once for the user; a taken e-mail is refused', async () => {
    const { user } = await createUser(t.deps, { name: 'Otto Old' });
    const { agent } = await signedInAgent(t.app, user);
    const taken = await admin.agent.patch(`/api/admin/users/${user.id}`, { email: admin.user.email });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toHaveProperty('email');
    // A refused request changes nothing it carried: not the role either (no admin the log never shows).
    const withRole = await admin.agent.patch(`/api/admin/users/${user.id}`, {
      role: 'admin',
      email: admin.user.email,
    });
    expect(withRole.statusCode).toBe(422);
    expect((await t.deps.users.findById(user.id))!.role).toBe('user');
    expect((await auditActions()).filter((entry) => entry.target?.id === user.id)).toEqual([]);

    const changed = await admin.agent.patch(`/api/admin/users/${user.id}`, {
      name: 'Otto New',
      email: 'otto.new@example.test',
      role: 'admin',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The user's own next request sees the change: admin calls open to them now.
    expect((await userResource(agent)).data.attributes).toMatchObject({ name: 'Otto New', role: 'admin' });
    expect((await agent.get('/api/admin/dashboard')).statusCode).toBe(200);

    const [entry] = await auditActions();
    expect(entry).toMatchObject({
      action: 'user.updated',
      target: { id: user.id },
      details: {
        name: { from: 'Otto Old', to: 'Otto New' },
        role: { from: 'user', to: 'admin' },
        email: { from: user.email, to: 'otto.new@example.test' },
      },
    });
  });

  it('never demotes the last admin, and demotes one of two', async () => {
    const solo = await createTestApp({ database: kind });
    try {
      const { user: only } = await createUser(solo.deps, { name: 'Only', role: 'admin' });
      const { agent } = await signedInAgent(solo.app, only);
      const refused = await agent.patch(`/api/admin/users/${only.id}`, { role: 'user' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toHaveProperty('role');
      expect((await solo.deps.users.findById(only.id))!.role).toBe('admin');

      const { user: second } = await createUser(solo.deps, { name: 'Second', role: 'admin' });
      expect((await agent.patch(`/api/admin/users/${second.id}`, { role: 'user' })).statusCode).toBe(200);
      expect((await solo.deps.users.findById(second.id))!.role).toBe('user');
      // Two admins demoting each other at once: one keeps the role.
      await solo.deps.database.db
        .updateTable('users')
        .set({ role: 'admin' })
        .where('id', '=', second.id)
        .execute();
      const { agent: secondAgent } = await signedInAgent(solo.app, second);
      await Promise.all([
        agent.patch(`/api/admin/users/${second.id}`, { role: 'user' }),
        secondAgent.patch(`/api/admin/users/${only.id}`, { role: 'user' }),
      ]);
      expect(await adminsOf(solo)).toHaveLength(1);
    } finally {
      await solo.close();
    }
  });

  it('never deletes the last admin, even when two admins delete each other at once', async () => {
    const solo = await createTestApp({ database: kind });
    try {
      const [first, second] = await Promise.all(
        ['First Admin', 'Second Admin'].map(async (name) => {
          const { user } = await createUser(solo.deps, { name, role: 'admin' });
          return { user, agent: (await signedInAgent(solo.app, user)).agent };
        }),
      );
      const answers = await Promise.all([
        first!.agent.delete(`/api/admin/users/${second!.user.id}`, { name: second!.user.name }),
        second!.agent.delete(`/api/admin/users/${first!.user.id}`, { name: first!.user.name }),
      ]);
      // The other is refused (422), or finds its own account gone (401) if it came second.
      expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(1);
      expect(await adminsOf(solo)).toHaveLength(1);
    } finally {
      await solo.close();
    }
  });

  it('sets the capacity in GB or back to the default; a lowered one stops the next upload with 423', async () => {
    const { user } = await createUser(t.deps, { name: 'Cara Capacity' });
    const { agent } = await signedInAgent(t.app, user);
    const first = await uploadFile(agent, randomBytes(4000), { name: 'first.bin' });
    expect(first.at(-1)!.statusCode).toBe(201);

    const lowered = await admin.agent.patch(`/api/admin/users/${user.id}/capacity`, {
      max_storage_amount: 0.000005, // 5,000 bytes: 1,000 free
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(UserResource.parse(lowered.json()).meta.limitations.max_storage_amount.total).toBe(5000);
    expect((await userResource(agent)).meta.limitations.max_storage_amount.total).toBe(5000);
    const refused = await uploadFile(agent, randomBytes(2000), { name: 'second.bin' });
    expect(refused.at(-1)!.statusCode).toBe(423);

    // Below what is stored: the account says so, and uploads stop.
    await admin.agent.patch(`/api/admin/users/${user.id}/capacity`, { max_storage_amount: 0.000001 });
    const full = await userResource(agent);
    expect(full.meta.limitations.max_storage_amount.total).toBe(1000);
    expect(full.meta.restrictions.canUpload).toBe(false);

    const detail = AdminUserDetail.parse((await admin.agent.get(`/api/admin/users/${user.id}`)).json());
    expect(detail.meta.storage).toMatchObject({ used: 4000, capacity: 1000, custom_capacity: 1000 });
    expect(detail.meta.storage.categories.find((c) => c.category === 'others')?.used).toBe(4000);
    expect(detail.meta.subscription).toBeNull();

    const reset = await admin.agent.patch(`/api/admin/users/${user.id}/capacity`, {
      max_storage_amount: null,
    });
    expect(reset.statusCode).toBe(200);
    expect((await userResource(agent)).meta.limitations.max_storage_amount.total).toBe(5 * GIGABYTE);
    expect((await uploadFile(agent, randomBytes(10), { name: 'third.bin' })).at(-1)!.statusCode).toBe(201);

    for (const bad of [-1, 'ten', 2_000_000])
      expect(
        (await admin.agent.patch(`/api/admin/users/${user.id}/capacity`, { max_storage_amount: bad }))
          .statusCode,
      ).toBe(422);
    const [entry] = await auditActions();
    expect(entry).toMatchObject({
      action: 'user.capacity_changed',
      details: { max_storage_amount: { from: 0.000001, to: null } },
    });
  });

  it('sets a password: every session of the user ends and the new password signs in', async () => {
    const { user } = await createUser(t.deps, { name: 'Pia Password' });
    const phone = (await signedInAgent(t.app, user)).agent;
    const laptop = (await signedInAgent(t.app, user)).agent;

    const mismatch = await admin.agent.post(`/api/admin/users/${user.id}/password`, {
      password: 'brand new secret',
      password_confirmation: 'something else',
    });
    expect(mismatch.statusCode).toBe(422);
    expect((await phone.get('/api/user')).statusCode).toBe(200);

    const set = await admin.agent.post(`/api/admin/users/${user.id}/password`, {
      password: 'brand new secret',
      password_confirmation: 'brand new secret',
    });
    expect(set.statusCode, set.body).toBe(204);
    for (const agent of [phone, laptop]) expect((await agent.get('/api/user')).statusCode).toBe(401);
    const login = (password: string) =>
      new TestAgent(t.app).post('/api/login', { email: user.email, password });
    expect((await login('brand new secret')).statusCode).toBe(200);
    // The admin's own session is untouched.
    expect((await admin.agent.get('/api/admin/users')).statusCode).toBe(200);

    const [entry] = await auditActions();
    expect(entry).toMatchObject({ action: 'user.password_set', target: { id: user.id }, details: {} });
    expect(JSON.stringify(await auditActions())).not.toContain('brand new secret');
  });

  it('mails a reset link on request, and signs the user out too', async () => {
    const { user } = await createUser(t.deps, {
      name: 'Rex Reset',
      email: `rex-${randomBytes(3).toString('hex')}@example.test`,
    });
    const { agent } = await signedInAgent(t.app, user);
    const sent = await admin.agent.post(`/api/admin/users/${user.id}/password`, { send_reset_link: true });
    expect(sent.statusCode, sent.body).toBe(204);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    const folder = path.join(t.dataDir, 'mail');
    const mails = readdirSync(folder).map((file) => readFileSync(path.join(folder, file), 'utf8'));
    expect(
      mails.some((eml) => eml.includes(`To: ${user.email}`) && eml.includes('create-new-password')),
    ).toBe(true);
    expect((await auditActions())[0]).toMatchObject({
      action: 'user.reset_link_sent',
      target: { id: user.id },
    });
  });

  it('refuses to delete itself, a mistyped name and an unknown id, changing nothing', async () => {
    const { user } = await createUser(t.deps, { name: 'Del Target' });
    const self = await admin.agent.delete(`/api/admin/users/${admin.user.id}`, { name: 'Ada Admin' });
    expect(self.statusCode).toBe(422);
    const mistyped = await admin.agent.delete(`/api/admin/users/${user.id}`, { name: 'Del Targ' });
    expect(mistyped.statusCode).toBe(422);
    expect(mistyped.json().errors).toHaveProperty('name');
    expect(
      (await admin.agent.delete('/api/admin/users/00000000-0000-4000-8000-000000000000', { name: 'x' }))
        .statusCode,
    ).toBe(404);
    // A body fit only for the other method of the address: a field error, not a server error.
    for (const refused of [
      await admin.agent.delete(`/api/admin/users/${user.id}`, {}),
      await admin.agent.post(`/api/admin/users/${user.id}`, { _method: 'delete' }),
      await admin.agent.patch(`/api/admin/users/${user.id}`, { name: '' }),
    ]) {
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().errors).toHaveProperty('name');
    }
    expect(await t.deps.users.findById(user.id)).toMatchObject({ name: 'Del Target' });
    expect(await t.deps.users.findById(admin.user.id)).toBeDefined();
  });

  it('ends the reset links mailed to the old address when it moves the account to a new one', async () => {
    const { user } = await createUser(t.deps, {
      email: `old-box-${randomBytes(3).toString('hex')}@example.test`,
    });
    expect(
      (await admin.agent.post(`/api/admin/users/${user.id}/password`, { send_reset_link: true })).statusCode,
    ).toBe(204);
    const folder = path.join(t.dataDir, 'mail');
    const mail = readdirSync(folder)
      .map((file) => readFileSync(path.join(folder, file), 'utf8'))
      .find((eml) => eml.includes(`To: ${user.email}`) && eml.includes('create-new-password'))!;
    const token = /token=3D([A-Za-z0-9_-]+)|token=([A-Za-z0-9_-]+)/.exec(mail)!.slice(1).find(Boolean)!;
    // The old mailbox is lost (or no longer the person's): the admin moves the account away from it.
    const moved = await admin.agent.patch(`/api/admin/users/${user.id}`, { email: 'moved@example.test' });
    expect(moved.statusCode, moved.body).toBe(200);
    const reset = await new TestAgent(t.app, '203.0.113.40').post('/api/password/reset', {
      token,
      email: 'moved@example.test',
      password: 'taken over now',
      password_confirmation: 'taken over now',
    });
    expect(reset.statusCode, reset.body).toBe(422);
    expect(reset.json().errors).toHaveProperty('token');
  });

  it('shows the dashboard: counts, newest users, no revenue without billing, versions, health and the audit link', async () => {
    const answer = await admin.agent.get('/api/admin/dashboard');
    expect(answer.statusCode, answer.body).toBe(200);
    const dashboard = AdminDashboard.parse(answer.json());
    const total = await t.deps.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(dashboard.users.total).toBe(Number(total.n));
    expect(dashboard.users.new_30_days).toBe(Number(total.n));
    expect(dashboard.users.admins).toBeGreaterThanOrEqual(2);
    expect(dashboard.storage.files).toBeGreaterThanOrEqual(2);
    expect(dashboard.latest_users).toHaveLength(5);
    expect(dashboard.revenue).toMatchObject({ currency: 'USD', last_30_days: '0.00' });
    expect(dashboard.revenue.by_month).toHaveLength(12);
    expect(dashboard.signups_by_month.at(-1)!.count).toBe(Number(total.n));
    expect(dashboard.latest_transactions).toEqual([]);
    expect(dashboard.versions.node).toBe(process.versions.node);
    expect(dashboard.versions.database).toMatch(kind === 'postgres' ? /^PostgreSQL \d/ : /^SQLite 3\./);
    expect(dashboard.health.storage).toEqual({ driver: 'local', state: 'ok' });
    expect(dashboard.health.queue.state).toBe('ok');
    expect(dashboard.health.mail).toEqual({ driver: 'log', state: 'ok' });
    expect((await admin.agent.get(dashboard.links.audit)).statusCode).toBe(200);
    expect(existsSync(path.join(t.dataDir, 'storage'))).toBe(true);
  });
});
