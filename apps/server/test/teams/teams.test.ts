import {
  InvitationDocument,
  ItemList,
  NotificationList,
  TeamFolderDocument,
  TeamItemList,
} from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { hashToken, randomToken } from '../../src/lib/tokens';
import { UserTokensRepository } from '../../src/modules/auth/user-tokens.repository';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import {
  createFilesTestApp,
  filesMatrix,
  readZip,
  uploadFile,
  uploaded,
  type FilesTestApp,
} from '../files/files-harness';
import { TestClock } from '../sharing/sharing-harness';

for (const [database, storage] of filesMatrix) {
  describe(`team folders [${database}, ${storage}]`, () => {
    const clock = new TestClock();
    let t: FilesTestApp;
    const people = {} as Record<
      'owner' | 'editor' | 'viewer' | 'stranger',
      { agent: TestAgent; user: UserRow }
    >;
    let team: string;
    let inner: string;
    let file: string;
    let outside: string;

    const snapshot = async () => ({
      items: await t.deps.database.db.selectFrom('items').selectAll().orderBy('id').execute(),
      members: await t.deps.database.db.selectFrom('team_members').selectAll().orderBy('user_id').execute(),
      objects: (await t.storedObjects()).sort(),
    });
    const invitationsOf = async (agent: TestAgent) =>
      NotificationList.parse((await agent.get('/api/notifications')).json()).data.filter(
        (n) => n.attributes.category === 'team-invitation',
      );
    /** Invites, then answers as the invitee from the notification's action. */
    const join = async (who: 'editor' | 'viewer', permission: 'can_edit' | 'can_view') => {
      clock.advanceSeconds(1);
      const res = await people.owner.agent.post(`/api/teams/folders/${team}`, {
        _method: 'patch',
        invitations: [{ email: people[who].user.email, permission }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const [notification] = await invitationsOf(people[who].agent);
      const action = notification!.attributes.action;
      if (action?.type !== 'invitation') throw new Error('no invitation action');
      expect((await people[who].agent.put(`/api/teams/invitations/${action.params.id}`)).statusCode).toBe(
        204,
      );
    };

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, clock.now);
      for (const who of ['owner', 'editor', 'viewer', 'stranger'] as const) {
        const { user } = await createUser(t.deps, { name: `The ${who}`, storageCapacity: 1_000_000 });
        people[who] = { user, agent: (await signedInAgent(t.app, user)).agent };
      }
      const created = await people.owner.agent.post('/api/teams/folders', {
        name: 'Studio',
        invitations: [],
      });
      expect(created.statusCode, created.body).toBe(201);
      team = TeamFolderDocument.parse(created.json()).data.id;
      inner = (
        await people.owner.agent.post('/api/create-folder', { name: 'Renders', parent_id: team })
      ).json().data.id;
      file = (await uploaded(people.owner.agent, randomBytes(300), { name: 'brief.txt', parentId: inner }))
        .id;
      outside = (await uploaded(people.owner.agent, randomBytes(300), { name: 'private.txt' })).id;
      await join('editor', 'can_edit');
      await join('viewer', 'can_view');
    });
    afterAll(() => t.close());

    it('shows the team with its members to the owner, and to members as shared with them', async () => {
      const mine = TeamItemList.parse((await people.owner.agent.get(`/api/teams/folders/${team}`)).json());
      expect(mine.meta.teamFolder?.members.map((m) => [m.name, m.permission])).toEqual([
        ['The editor', 'can_edit'],
        ['The viewer', 'can_view'],
      ]);
      expect(mine.meta.teamFolder?.invitations.map((i) => i.status)).toEqual(['accepted', 'accepted']);
      // Each person in the colour of their own pages.
      expect(mine.meta.teamFolder?.members[0]?.color).toBe(people.editor.user.color);
      expect(mine.meta.teamFolder?.owner.color).toBe(people.owner.user.color);
      const shared = TeamItemList.parse(
        (await people.viewer.agent.get('/api/teams/shared-with-me/all')).json(),
      );
      expect(shared.data.map((item) => item.id)).toEqual([team]);
      expect(shared.data[0]!.relationships.shared.data).toBeNull();
      // The list carries each folder's team, so it needs no call per row.
      expect(shared.meta.teams?.[team]).toMatchObject({
        owner: { name: 'The owner' },
        permission: 'can_view',
      });
      const owned = TeamItemList.parse((await people.owner.agent.get('/api/teams/folders/all')).json());
      expect(owned.meta.teams?.[team]?.members).toHaveLength(2);
      const inside = TeamItemList.parse(
        (await people.viewer.agent.get(`/api/teams/shared-with-me/${team}`)).json(),
      );
      expect(inside.meta.teamFolder).toMatchObject({ permission: 'can_view', invitations: [] });
      expect(inside.data.map((item) => item.attributes.name)).toEqual(['Renders']);
      const tree = (await people.editor.agent.get(`/api/teams/folders/${team}/tree`)).json().data;
      expect(tree.map((node: { name: string }) => node.name)).toEqual(['Renders']);
      const user = (await people.owner.agent.get('/api/user')).json();
      expect(user.meta.limitations.max_team_members.use).toBe(2);
      expect(user.meta.allowed_emails).toEqual([people.editor.user.email, people.viewer.user.email].sort());
    });

    it('lets a viewer browse, download and zip, through the owner’s usual calls, and nothing more', async () => {
      const viewer = people.viewer.agent;
      expect((await viewer.get(`/api/browse/folders/${inner}`)).statusCode).toBe(200);
      const bytes = await viewer.get(`/file/${file}`);
      expect(bytes.statusCode).toBe(200);
      const zip = await viewer.get(`/api/zip?items=${inner}|folder`);
      expect([...readZip(zip.rawPayload).keys()]).toEqual(['Renders/', 'Renders/brief.txt']);
      const before = await snapshot();
      for (const [url, body] of [
        ['/api/create-folder', { name: 'Planted', parent_id: inner }],
        [`/api/rename/${file}`, { name: 'x.txt', type: 'file', _method: 'patch' }],
        ['/api/move', { to_id: team, items: [{ id: file, type: 'file' }] }],
        ['/api/remove', { items: [{ id: file, type: 'file', force_delete: false }] }],
      ] as [string, Record<string, unknown>][])
        expect((await viewer.post(url, body)).statusCode, url).toBe(403);
      const upload = await uploadFile(viewer, randomBytes(10), { name: 'up.txt', parentId: inner });
      expect(upload.at(-1)!.statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('lets an editor upload, make folders, rename, move and delete to the owner’s trash, counted against the owner', async () => {
      const editor = people.editor.agent;
      const used = async (who: 'owner' | 'editor') =>
        (await people[who].agent.get('/api/user')).json().meta.usages.used as number;
      const [ownerBefore, editorBefore] = [await used('owner'), await used('editor')];
      const sent = await uploaded(editor, randomBytes(5000), { name: 'render.png.txt', parentId: inner });
      expect(await used('owner')).toBe(ownerBefore + 5000);
      expect(await used('editor')).toBe(editorBefore);
      const folder = await editor.post('/api/create-folder', { name: 'Finals', parent_id: team });
      expect(folder.statusCode, folder.body).toBe(201);
      expect(
        (await editor.post(`/api/rename/${sent.id}`, { name: 'final.txt', type: 'file', _method: 'patch' }))
          .statusCode,
      ).toBe(200);
      expect(
        (
          await editor.post('/api/move', {
            to_id: folder.json().data.id,
            items: [{ id: sent.id, type: 'file' }],
          })
        ).statusCode,
      ).toBe(204);
      expect(
        (await editor.post('/api/remove', { items: [{ id: sent.id, type: 'file', force_delete: true }] }))
          .statusCode,
      ).toBe(204);
      const trash = ItemList.parse((await people.owner.agent.get('/api/browse/trash/all')).json()).data;
      expect(trash.map((item) => item.id)).toContain(sent.id);
      // The team folder itself is the owner's: not renamed, moved or removed by a member.
      expect(
        (await editor.post(`/api/rename/${team}`, { name: 'Mine', type: 'folder', _method: 'patch' }))
          .statusCode,
      ).toBe(403);
    });

    it('answers 404 to a stranger and to a member outside the team folder', async () => {
      const before = await snapshot();
      for (const agent of [people.stranger.agent, people.editor.agent]) {
        expect((await agent.get(`/file/${outside}`)).statusCode).toBe(404);
        expect(
          (await agent.post(`/api/rename/${outside}`, { name: 'x', type: 'file', _method: 'patch' }))
            .statusCode,
        ).toBe(404);
        expect((await agent.get(`/api/zip?items=${outside}|file`)).statusCode).toBe(404);
      }
      expect((await people.stranger.agent.get(`/api/browse/folders/${inner}`)).statusCode).toBe(404);
      expect((await people.stranger.agent.get(`/api/teams/shared-with-me/${team}`)).statusCode).toBe(404);
      expect((await people.stranger.agent.get(`/api/teams/folders/${team}/tree`)).statusCode).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a member a move between the team folder and their own files either way (403), changing nothing', async () => {
      const editor = people.editor.agent;
      const own = (await editor.post('/api/create-folder', { name: 'Own shelf' })).json().data.id as string;
      const mine = await uploaded(editor, randomBytes(20), { name: 'mine.txt', parentId: own });
      const before = await snapshot();
      for (const body of [
        { to_id: own, items: [{ id: file, type: 'file' }] },
        { to_id: null, items: [{ id: file, type: 'file' }] },
        { to_id: inner, items: [{ id: mine.id, type: 'file' }] },
      ])
        expect((await editor.post('/api/move', body)).statusCode, JSON.stringify(body)).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses the team’s management to members (403) and strangers (404)', async () => {
      for (const [agent, status] of [
        [people.editor.agent, 403],
        [people.stranger.agent, 404],
      ] as const) {
        expect(
          (await agent.post(`/api/teams/folders/${team}`, { _method: 'patch', remove_members: [] }))
            .statusCode,
        ).toBe(status);
        expect((await agent.delete(`/api/teams/folders/${team}`)).statusCode).toBe(status);
        // The owner's view of the team (a member's is /shared-with-me).
        for (const folder of [team, inner])
          expect((await agent.get(`/api/teams/folders/${folder}`)).statusCode).toBe(status);
      }
    });

    it('leaves share links and upload requests on the team’s items to the owner: members 403, strangers 404', async () => {
      const before = await snapshot();
      const shares = () => t.deps.database.db.selectFrom('shares').selectAll().orderBy('token').execute();
      const requests = () =>
        t.deps.database.db.selectFrom('upload_requests').selectAll().orderBy('id').execute();
      const [sharesBefore, requestsBefore] = [await shares(), await requests()];
      for (const [agent, status] of [
        [people.editor.agent, 403],
        [people.viewer.agent, 403],
        [people.stranger.agent, 404],
      ] as const) {
        for (const [id, type] of [
          [inner, 'folder'],
          [file, 'file'],
        ] as const)
          expect(
            (await agent.post('/api/share', { id, type, permission: 'visitor' })).statusCode,
            `${type} ${status}`,
          ).toBe(status);
        expect((await agent.post('/api/file-request', { folder_id: inner })).statusCode).toBe(status);
      }
      expect([await snapshot(), await shares(), await requests()]).toEqual([
        before,
        sharesBefore,
        requestsBefore,
      ]);
      // Nor may they take the team's models into projects of their own, or render its folders.
      const model = await uploaded(people.owner.agent, Buffer.from('solid part\nendsolid part\n'), {
        name: 'part.stl',
        parentId: inner,
      });
      const projects = () => t.deps.database.db.selectFrom('projects').selectAll().execute();
      const projectsBefore = await projects();
      const mine = people.editor.agent;
      const own = await mine.post('/api/create-project', { project_name: 'Mine' });
      expect(own.statusCode, own.body).toBe(201);
      const ownId = (own.json() as { id: string }).id;
      for (const [agent, status] of [
        [people.editor.agent, 403],
        [people.stranger.agent, 404],
      ] as const) {
        expect((await agent.post('/api/projects/from-file', { file_id: model.id })).statusCode).toBe(status);
        expect(
          (await agent.post('/api/file-generateAssets', { folder_id: inner, category_id: 'product' }))
            .statusCode,
        ).toBe(status);
      }
      expect((await mine.post(`/api/projects/${ownId}/inputs`, { items: [model.id] })).statusCode).toBe(403);
      expect((await projects()).length).toBe(projectsBefore.length + 1);
      // The owner makes both.
      expect(
        (await people.owner.agent.post('/api/share', { id: inner, type: 'folder', permission: 'visitor' }))
          .statusCode,
      ).toBe(201);
      expect((await people.owner.agent.post('/api/file-request', { folder_id: inner })).statusCode).toBe(201);
    });

    it('keeps invitations for the invited address only, and lets them expire after 7 days', async () => {
      // An account that has the address when invited (one made later needs the e-mailed link).
      const { user } = await createUser(t.deps, { email: 'late@example.test' });
      const res = await people.owner.agent.post(`/api/teams/folders/${team}`, {
        _method: 'patch',
        invitations: [{ email: 'late@example.test', permission: 'can_view' }],
      });
      const id = TeamFolderDocument.parse(res.json()).meta.teamFolder.invitations.find(
        (i) => i.email === 'late@example.test',
      )!.id;
      expect((await people.stranger.agent.get(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
      expect((await people.stranger.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
      expect(
        InvitationDocument.parse((await people.owner.agent.get(`/api/teams/invitations/${id}`)).json()).data
          .attributes,
      ).toMatchObject({
        status: 'pending',
        folder_id: team,
        folder_name: 'Studio',
        inviter: { name: 'The owner' },
      });
      clock.advanceHours(7 * 24);
      const { agent: late } = await signedInAgent(t.app, user);
      expect(
        InvitationDocument.parse((await late.get(`/api/teams/invitations/${id}`)).json()).data.attributes
          .status,
      ).toBe('expired');
      expect((await late.put(`/api/teams/invitations/${id}`)).statusCode).toBe(410);
      expect((await late.get(`/api/teams/shared-with-me/${team}`)).statusCode).toBe(404);
    });

    it('keeps one team to a branch of the tree: no team folder goes inside another, by conversion or by a move', async () => {
      const owner = people.owner.agent;
      const folder = async (name: string, parent_id?: string) =>
        (await owner.post('/api/create-folder', { name, ...(parent_id ? { parent_id } : {}) })).json().data
          .id as string;
      const catalogue = await folder('Catalogue');
      const rings = await folder('Rings', catalogue);
      expect((await owner.post(`/api/teams/folders/${rings}/convert`, { invitations: [] })).statusCode).toBe(
        201,
      );
      const holding = await owner.post(`/api/teams/folders/${catalogue}/convert`, { invitations: [] });
      expect(holding.statusCode).toBe(422);
      expect(holding.json().errors).toHaveProperty('id');

      const before = await snapshot();
      const move = (id: string, to: string) =>
        owner.post('/api/move', { to_id: to, items: [{ id, type: 'folder' }] });
      // Neither the team folder itself nor a folder holding it goes into the Studio team folder.
      for (const moved of [rings, catalogue]) {
        const answer = await move(moved, inner);
        expect(answer.statusCode).toBe(422);
        expect(answer.json().errors).toHaveProperty('to_id');
      }
      expect(await snapshot()).toEqual(before);
      // A plain folder still goes in, and a team folder into a plain folder.
      const plain = await folder('Plain');
      expect((await move(plain, inner)).statusCode).toBe(204);
      expect((await move(rings, plain)).statusCode).toBe(422);
      const elsewhere = await folder('Elsewhere');
      expect((await move(rings, elsewhere)).statusCode).toBe(204);
      expect((await owner.delete(`/api/teams/folders/${rings}`)).statusCode).toBe(204);
    });

    it('keeps a team folder restored from the trash out of another team folder its old folder went into', async () => {
      const owner = people.owner.agent;
      const shelf = (await owner.post('/api/create-folder', { name: 'Archive shelf' })).json().data
        .id as string;
      const made = await owner.post('/api/create-folder', { name: 'Old team', parent_id: shelf });
      const oldTeam = made.json().data.id as string;
      expect(
        (await owner.post(`/api/teams/folders/${oldTeam}/convert`, { invitations: [] })).statusCode,
      ).toBe(201);
      const note = (await uploaded(owner, Buffer.from('a note'), { name: 'note.txt', parentId: shelf })).id;
      const trashed = await owner.post('/api/remove', {
        items: [
          { id: note, type: 'file', force_delete: false },
          { id: oldTeam, type: 'folder', force_delete: false },
        ],
      });
      expect(trashed.statusCode).toBe(204);
      // The team folder in the trash is no longer below the shelf's live folders: the shelf moves in.
      expect(
        (await owner.post('/api/move', { to_id: inner, items: [{ id: shelf, type: 'folder' }] })).statusCode,
      ).toBe(204);
      const restored = await owner.post('/api/trash/restore', {
        to_home: false,
        items: [
          { id: note, type: 'file' },
          { id: oldTeam, type: 'folder' },
        ],
      });
      expect(restored.statusCode).toBe(422);
      expect(restored.json().errors).toHaveProperty('items');
      // All or nothing: the note restored before the refusal is in the trash still.
      const trash = ItemList.parse((await owner.get('/api/browse/trash/all')).json()).data;
      expect(trash.map((item) => item.id)).toEqual(expect.arrayContaining([note, oldTeam]));
      expect((await people.viewer.agent.get(`/api/browse/folders/${oldTeam}`)).statusCode).toBe(404);
      // To the root it comes back, a team of its own.
      const home = await owner.post('/api/trash/restore', {
        to_home: true,
        items: [{ id: oldTeam, type: 'folder' }],
      });
      expect(home.statusCode).toBe(204);
      expect((await people.viewer.agent.get(`/api/browse/folders/${oldTeam}`)).statusCode).toBe(404);
      expect((await owner.delete(`/api/teams/folders/${oldTeam}`)).statusCode).toBe(204);
    });

    it('lets a member leave, and the owner remove a member and dissolve the team (the folder stays)', async () => {
      expect((await people.viewer.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(204);
      expect((await people.viewer.agent.get(`/file/${file}`)).statusCode).toBe(404);
      expect((await people.owner.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(403);
      const removed = await people.owner.agent.post(`/api/teams/folders/${team}`, {
        _method: 'patch',
        remove_members: [people.editor.user.id],
      });
      expect(TeamFolderDocument.parse(removed.json()).meta.teamFolder.members).toEqual([]);
      expect((await people.editor.agent.get(`/api/browse/folders/${inner}`)).statusCode).toBe(404);
      expect((await people.owner.agent.delete(`/api/teams/folders/${team}`)).statusCode).toBe(204);
      const root = ItemList.parse((await people.owner.agent.get('/api/browse/folders/all')).json()).data;
      expect(root.map((item) => item.id)).toContain(team);
      expect(
        TeamItemList.parse((await people.owner.agent.get('/api/teams/folders/all')).json()).data,
      ).toEqual([]);
    });
  });
}

describe('team invitations: registration and the member limit', () => {
  let t: FilesTestApp;
  let owner: TestAgent;
  let team: string;

  beforeAll(async () => {
    t = await createFilesTestApp('sqlite', 'local', { email_verification: true });
    const { user } = await createUser(t.deps, { name: 'The owner' });
    ({ agent: owner } = await signedInAgent(t.app, user));
    team = TeamFolderDocument.parse(
      (await owner.post('/api/teams/folders', { name: 'Crew', invitations: [] })).json(),
    ).data.id;
  });
  afterAll(() => t.close());

  it('makes an invitation to a new address reach the account only once the address is verified', async () => {
    const res = await owner.post(`/api/teams/folders/${team}`, {
      _method: 'patch',
      invitations: [{ email: 'newcomer@example.test', permission: 'can_edit' }],
    });
    const id = TeamFolderDocument.parse(res.json()).meta.teamFolder.invitations[0]!.id;
    const { user } = await createUser(t.deps, { email: 'newcomer@example.test', emailVerified: false });
    const { agent } = await signedInAgent(t.app, user);
    expect((await agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(403);
    expect(NotificationList.parse((await agent.get('/api/notifications')).json()).data).toEqual([]);
    await t.deps.auth.verifyEmail(await verificationToken(t, user.id));
    const [notification] = NotificationList.parse((await agent.get('/api/notifications')).json()).data;
    expect(notification?.attributes).toMatchObject({
      category: 'team-invitation',
      action: { type: 'invitation', params: { id } },
    });
    expect((await agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(204);
    expect((await agent.get(`/api/teams/shared-with-me/${team}`)).statusCode).toBe(200);
  });

  it('refuses an invite past the member limit of a fixed subscription, naming the limit, and only then', async () => {
    const invite = (email: string) =>
      owner.post(`/api/teams/folders/${team}`, {
        _method: 'patch',
        invitations: [{ email, permission: 'can_view' }],
      });
    await t.deps.settings.set({ subscription_type: 'fixed', default_team_members: 2 });
    expect((await invite('second@example.test')).statusCode).toBe(200);
    const refused = await invite('third@example.test');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.invitations[0]).toContain('2 team members');
    // Someone already counted is no new member.
    expect((await invite('second@example.test')).statusCode).toBe(200);
    for (const [type, total] of [
      ['metered', 2],
      ['none', 2],
      ['fixed', -1],
    ] as const) {
      await t.deps.settings.set({ subscription_type: type, default_team_members: total });
      expect((await invite(`${type}${total}@example.test`)).statusCode, `${type} ${total}`).toBe(200);
    }
  });
});

/** A verification link for the user, as the e-mail would carry it (the stored row holds only its hash). */
async function verificationToken(t: FilesTestApp, userId: string): Promise<string> {
  const token = randomToken();
  await new UserTokensRepository(t.deps.database, 'email_verifications', t.deps.clock).insert(
    userId,
    hashToken(token),
    new Date(t.deps.clock().getTime() + 3_600_000),
  );
  return token;
}
