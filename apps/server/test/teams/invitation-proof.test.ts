import { InvitationDocument, NotificationList, TeamFolderDocument } from '@atelier/contracts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { teamsJobDefinitions } from '../../src/modules/teams/teams.module';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { hashToken } from '../../src/lib/tokens';
import { UserTokensRepository } from '../../src/modules/auth/user-tokens.repository';
import type { UserRow } from '../../src/db/schema';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

/** The link of the invitation e-mail to `to`, once the job has sent it. */
async function invitationLink(t: TestApp, to: string): Promise<URL> {
  const folder = path.join(t.dataDir, 'mail');
  const mail = () =>
    (existsSync(folder) ? readdirSync(folder) : [])
      .map((file) => readFileSync(path.join(folder, file), 'utf8'))
      .find((eml) => eml.includes(`To: ${to}`));
  await vi.waitFor(() => expect(mail()).toBeDefined(), { timeout: 10_000 });
  const match = /(http:\/\/atelier\.test\/team-folder-invitation\/\S+)/.exec(mail()!.replace(/=\r?\n/g, ''));
  return new URL(match![1]!.replace(/=3D/g, '='));
}

/** The account proves its address by resetting its password through the e-mailed link, and signs in again. */
async function proveByReset(t: TestApp, agent: TestAgent, user: UserRow): Promise<void> {
  const token = randomBytes(16).toString('hex');
  await new UserTokensRepository(t.deps.database, 'password_resets', t.deps.clock).insert(
    user.id,
    hashToken(token),
    new Date(t.deps.clock().getTime() + 3_600_000),
  );
  const reset = await agent.post('/api/password/reset', {
    token,
    email: user.email,
    password: 'a proven secret',
    password_confirmation: 'a proven secret',
  });
  expect(reset.statusCode).toBe(200);
  const login = await agent.post('/api/login', { email: user.email, password: 'a proven secret' });
  expect(login.statusCode).toBe(200);
}

/** The invitations the account's notifications offer. */
async function offeredTo(agent: TestAgent): Promise<string[]> {
  const notifications = NotificationList.parse((await agent.get('/api/notifications')).json()).data;
  return notifications.flatMap(({ attributes: { action } }) =>
    action?.type === 'invitation' ? [action.params.id] : [],
  );
}

// E-mail verification is off (the default): registering proves nothing about the address, so an
// invitation to an address that had no account waits for the e-mailed link.
describeEachDatabase('team invitations to an address with no account', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    t.deps.jobs.startWorker({ definitions: teamsJobDefinitions, services: t.deps });
  });
  afterAll(() => t.close());

  it('are not shown to whoever registers the address first, only to one who follows the e-mailed link', async () => {
    const { agent: owner } = await signedInAgent(t.app);
    const email = `invitee-${randomBytes(4).toString('hex')}@example.test`;
    const created = await owner.post('/api/teams/folders', {
      name: 'Blueprints',
      invitations: [{ email, permission: 'can_edit' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = TeamFolderDocument.parse(created.json()).meta.teamFolder.invitations[0]!.id;

    const registrant = new TestAgent(t.app);
    const registered = await registrant.post('/api/register', {
      name: 'First Come',
      email,
      password: 'first come secret',
      password_confirmation: 'first come secret',
    });
    expect(registered.statusCode).toBe(201);

    // Without the link: no notification, and the invitation is neither shown nor answerable.
    const notifications = NotificationList.parse((await registrant.get('/api/notifications')).json()).data;
    expect(notifications.filter((n) => n.attributes.category === 'team-invitation')).toEqual([]);
    expect((await registrant.get(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
    expect((await registrant.put(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
    expect((await registrant.delete(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
    expect((await registrant.put(`/api/teams/invitations/${id}?token=guessed`)).statusCode).toBe(403);

    // The e-mailed link carries the proof.
    const link = await invitationLink(t, email);
    expect(link.pathname).toBe(`/team-folder-invitation/${id}`);
    const token = link.searchParams.get('token');
    expect(token).toBeTruthy();
    const query = `?token=${encodeURIComponent(token!)}`;
    const shown = await registrant.get(`/api/teams/invitations/${id}${query}`);
    expect(shown.statusCode).toBe(200);
    expect(InvitationDocument.parse(shown.json()).data.attributes).toMatchObject({
      status: 'pending',
      folder_name: 'Blueprints',
    });
    expect((await registrant.put(`/api/teams/invitations/${id}${query}`)).statusCode).toBe(204);
    const shared = await registrant.get('/api/teams/shared-with-me/all');
    expect(
      shared.json().data.map((item: { attributes: { name: string } }) => item.attributes.name),
    ).toContain('Blueprints');
  });

  it('reach an account made later once it proves the address another way (a reset through the e-mailed link)', async () => {
    const { agent: owner } = await signedInAgent(t.app);
    const email = `prover-${randomBytes(4).toString('hex')}@example.test`;
    const created = await owner.post('/api/teams/folders', {
      name: 'Proven',
      invitations: [{ email, permission: 'can_view' }],
    });
    const id = TeamFolderDocument.parse(created.json()).meta.teamFolder.invitations[0]!.id;
    const { user } = await createUser(t.deps, { email });
    const agent = new TestAgent(t.app);
    expect((await agent.post('/api/login', { email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect((await agent.get(`/api/teams/invitations/${id}`)).statusCode).toBe(403);

    await proveByReset(t, agent, user);
    expect(await offeredTo(agent)).toContain(id);
    expect((await agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(204);
  });

  it('reach an account that proves the address while the folder is in the trash only once it is restored', async () => {
    const { agent: owner } = await signedInAgent(t.app);
    const email = `patient-${randomBytes(4).toString('hex')}@example.test`;
    const created = await owner.post('/api/teams/folders', {
      name: 'Shelved',
      invitations: [{ email, permission: 'can_view' }],
    });
    const { data: folder, meta } = TeamFolderDocument.parse(created.json());
    const id = meta.teamFolder.invitations[0]!.id;
    const trashed = await owner.post('/api/remove', { items: [{ id: folder.id, type: 'folder' }] });
    expect(trashed.statusCode).toBe(204);
    const { user } = await createUser(t.deps, { email });
    const agent = new TestAgent(t.app);

    await proveByReset(t, agent, user);
    expect(await offeredTo(agent)).not.toContain(id);

    const restored = await owner.post('/api/trash/restore', { items: [{ id: folder.id, type: 'folder' }] });
    expect(restored.statusCode).toBe(204);
    expect(await offeredTo(agent)).toContain(id);
    expect((await agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(204);
  });

  it('still lets an account that had the address before the invitation answer it from its notification', async () => {
    const { agent: member, user } = await signedInAgent(t.app);
    const { agent: owner } = await signedInAgent(t.app);
    const created = await owner.post('/api/teams/folders', {
      name: 'Known',
      invitations: [{ email: user.email, permission: 'can_view' }],
    });
    const id = TeamFolderDocument.parse(created.json()).meta.teamFolder.invitations[0]!.id;
    const notifications = NotificationList.parse((await member.get('/api/notifications')).json()).data;
    expect(notifications.map((n) => n.attributes.action)).toContainEqual({
      type: 'invitation',
      params: expect.objectContaining({ id }),
    });
    expect((await member.put(`/api/teams/invitations/${id}`)).statusCode).toBe(204);
  });
});
