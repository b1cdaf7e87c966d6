import type { GalleryDateList, ProjectDocument, RenderJobList, Role } from '@atelier/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { UserRow } from '../../src/db/schema';
import { hashToken } from '../../src/lib/tokens';
import { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { uploadToProject } from '../projects/support/chunks';
import { boxStl } from '../projects/support/models';

/** The seeded people: two users with the same kind of data, and an admin with some of their own. */
export const SEEDED_USERS = ['owner', 'stranger', 'admin'] as const;
export type SeededUserName = (typeof SEEDED_USERS)[number];

/** The links each user has, of every kind an actor may hold, each on a folder of its own. */
export const SHARE_KINDS = ['visitor', 'editor', 'expired', 'protected', 'revoked'] as const;
export type SeededShareKind = (typeof SHARE_KINDS)[number];
/** The password of the `protected` link. */
export const SHARE_PASSWORD = 'the link password';

/** The upload requests each user has, of every kind an actor may hold; `unknown` was never made. */
export const REQUEST_KINDS = ['active', 'filled', 'expired', 'unknown'] as const;
export type SeededRequestKind = (typeof REQUEST_KINDS)[number];

/** An upload request and what its folder holds; every field is an id. */
export interface SeededRequest {
  token: string;
  /** The request's folder, holding `before` and what came through the request. */
  folder: string;
  /** A file of the owner's in the folder before the request: never the outsider's to see or change. */
  before: string;
  /** Came through the request: a folder, a file, one the move rows put into `inner`, one the remove rows trash. */
  inner: string;
  file: string;
  movable: string;
  disposable: string;
  /** Two more open requests into the same folder (active kind), one for each form of the close row. */
  closable: [string, string];
}

/** The members of the owner's team folders: a user of each permission, with no data of their own. */
export const TEAM_MEMBER_KINDS = ['viewer', 'editor'] as const;
export type TeamMemberKind = (typeof TEAM_MEMBER_KINDS)[number];

export interface SeededTeam {
  /** Has both members; its `spare` twin too, so each form of the leave row has a team to leave. */
  folder: string;
  spare: string;
  members: Record<TeamMemberKind, UserRow>;
  /** An invitation to an address with no account. */
  invitation: string;
  dissolvable: [string, string];
  convertible: string;
  /** Each member's app passwords, for the WebDAV rows. */
  dav: Record<TeamMemberKind, DavPasswords>;
  /** A file in the team folder saved seven times: its versions' ids, one per call that changes them. */
  versioned: SeededVersions;
}

/** The versions of a file that the version rows read, restore and delete, each used by one call only. */
export interface SeededVersions {
  file: string;
  read: string;
  restore: { teamEditor: string; owner: string };
  remove: { teamEditor: [string, string]; owner: [string, string] };
}

/** A user's app password for /dav/, and one they revoked. */
export interface DavPasswords {
  password: string;
  revokedPassword: string;
}

/** The files each WebDAV folder holds: one to read, one to delete, one to move, one to lock. */
const DAV_FILES = ['readable', 'removable', 'movable', 'lockable'];
/** The folders of the seeded WebDAV folder (and team folder) that Nextcloud's addresses write in. */
export const DAV_MOUNT_FOLDERS = ['webdav', 'files'] as const;

/** A link and what its folder holds; every field is an id but `token`. */
export interface SeededShare {
  token: string;
  /** The shared folder, holding `inner`, `file`, `image`, `movable` and `disposable`. */
  folder: string;
  inner: string;
  file: string;
  /** A png with its thumbnails made. */
  image: string;
  /** A live file the move rows put into `inner`. */
  movable: string;
  /** A live file the remove rows send to the trash. */
  disposable: string;
  /** A file of the folder saved five times: its versions' ids, one per call that changes them. */
  versioned: SeededShareVersions;
}

/** The versions of a shared file that the link's version rows read, restore and delete. */
export interface SeededShareVersions {
  file: string;
  read: string;
  restore: string;
  remove: [string, string];
}

/** One user's account and data, by role in the proof suites; every field but `user` is an id. */
export interface SeededUser {
  user: UserRow;
  /** A live root folder holding `file`, `image` and `movable`; also a favourite. */
  folder: string;
  /** A live root folder, where the move rows put `movable`. */
  destination: string;
  file: string;
  /** A png with its thumbnails made. */
  image: string;
  movable: string;
  /** A live file the remove rows send to the trash. */
  disposable: string;
  /** A folder in the trash, with a file inside. */
  trashedFolder: string;
  /** A file in the trash, for the restore rows. */
  trashedFile: string;
  project: string;
  /** The project's folder in the owner's files, where its inputs live. */
  projectFolder: string;
  /** A model file of the project. */
  projectInput: string;
  /** The gallery day (YYYY-MM-DD) of the project's rendered output. */
  galleryDate: string;
  notifications: string[];
  /** The user's links, one of each kind. */
  shares: Record<SeededShareKind, SeededShare>;
  /** Two more links, one for each form of the revoke row. */
  revocable: [string, string];
  /** The uploaded avatar's key, and the png it was made from (the upload row sends it again). */
  avatar: { key: string; image: Buffer };
  /** The user's upload requests, one of each kind. */
  requests: Record<SeededRequestKind, SeededRequest>;
  /** A team folder of the user's with a pending invitation, two more to dissolve, and a folder to convert. */
  team: SeededTeam;
  /** Two app passwords of the user's, one for each form of the revoke row. */
  appPasswords: [string, string];
  /**
   * What the WebDAV rows reach: the user's app passwords, the name of a root folder of theirs and
   * that of their team folder (`team`), each holding the DAV_FILES as `{name}.txt`.
   */
  dav: DavPasswords & { folder: string; team: string };
  /** The public ids of two more signed-in sessions of the user's, one for each form of the sign-out row. */
  devices: [string, string];
  /**
   * Everything that identifies this user or their data (ids, names, e-mail, texts), chosen unique,
   * so an answer that contains one shows something of theirs.
   */
  secrets: string[];
}

export type Seed = Record<SeededUserName, SeededUser>;

async function createdFolder(agent: TestAgent, name: string, parentId?: string): Promise<string> {
  const answer = await agent.post('/api/create-folder', {
    name,
    ...(parentId ? { parent_id: parentId } : {}),
  });
  if (answer.statusCode !== 201)
    throw new Error(`create-folder answered ${answer.statusCode}: ${answer.body}`);
  return answer.json().data.id;
}

async function succeeded(answer: Promise<{ statusCode: number; body: string }>, what: string): Promise<void> {
  const { statusCode, body } = await answer;
  if (statusCode >= 300) throw new Error(`${what} answered ${statusCode}: ${body}`);
}

/** Renders the project's inputs into one tiny still with the real engine; returns its gallery day. */
async function renderedOutput(t: TestApp, agent: TestAgent, projectId: string): Promise<string> {
  const tiny = { resolution: { width: 32, height: 32 }, stills: 1, video: false };
  for (const [updateKey, updateValue] of Object.entries(tiny))
    await succeeded(
      agent.post('/api/update-project-settings', { project_id: projectId, updateKey, updateValue }),
      updateKey,
    );
  const generated = await agent.post('/api/generateAssets', {
    project_id: projectId,
    category_id: 'mechanical',
  });
  if (generated.statusCode !== 201)
    throw new Error(`generateAssets answered ${generated.statusCode}: ${generated.body}`);
  for (const render of generated.json<RenderJobList>().data)
    await t.deps.projectRenders.run(render.id, {
      attempt: 1,
      failures: 0,
      retries: 0,
      signal: new AbortController().signal,
    });
  const days = (await agent.get(`/api/browse/projects/gallery/${projectId}`)).json<GalleryDateList>().data;
  if (days.length !== 1) throw new Error(`expected one gallery day, found ${JSON.stringify(days)}`);
  return days[0]!.date;
}

async function pngImage(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0ffee' } })
    .png()
    .toBuffer();
}

/** A user and their data made through the real API and services, as the product would have them. */
async function seedUser(t: TestApp, label: SeededUserName, role: Role): Promise<SeededUser> {
  const tag = `${label}-${randomBytes(5).toString('hex')}`;
  const { user } = await createUser(t.deps, { name: `Name of ${tag}`, email: `${tag}@example.test`, role });
  const { agent } = await signedInAgent(t.app, user);
  const named = (what: string) => `${what}-of-${tag}`;
  const avatarImage = await pngImage();
  const { avatar } = await t.deps.avatars.replace(user, avatarImage);

  const folder = await createdFolder(agent, named('folder'));
  const destination = await createdFolder(agent, named('destination'));
  const trashedFolder = await createdFolder(agent, named('binned-folder'));
  const file = (
    await uploaded(agent, Buffer.from(`text of ${tag}\n`), { name: `${named('file')}.txt`, parentId: folder })
  ).id;
  const image = (await uploaded(agent, await pngImage(), { name: `${named('image')}.png`, parentId: folder }))
    .id;
  await t.deps.thumbnails.generate(image);
  const movable = (
    await uploaded(agent, Buffer.from(`moved ${tag}`), { name: `${named('movable')}.txt`, parentId: folder })
  ).id;
  const disposable = (
    await uploaded(agent, Buffer.from(`disposable ${tag}`), { name: `${named('disposable')}.txt` })
  ).id;
  const trashedInside = (
    await uploaded(agent, Buffer.from(`inside ${tag}`), {
      name: `${named('inside')}.txt`,
      parentId: trashedFolder,
    })
  ).id;
  const trashedFile = (
    await uploaded(agent, Buffer.from(`binned ${tag}`), { name: `${named('binned-file')}.txt` })
  ).id;
  await succeeded(
    agent.post('/api/remove', {
      items: [
        { id: trashedFolder, type: 'folder', force_delete: false },
        { id: trashedFile, type: 'file', force_delete: false },
      ],
    }),
    'remove',
  );
  await succeeded(agent.post('/api/favourites', { ids: [folder, file] }), 'favourites');

  const created = await agent.post('/api/create-project', {
    project_name: named('project'),
    description: named('brief'),
  });
  if (created.statusCode !== 201)
    throw new Error(`create-project answered ${created.statusCode}: ${created.body}`);
  const project = created.json<ProjectDocument>();
  const input = (await uploadToProject(agent, project.id, `${named('model')}.stl`, boxStl())).at(-1)!;
  if (input.statusCode !== 201) throw new Error(`project upload answered ${input.statusCode}: ${input.body}`);
  const projectInput: string = input.json().data.id;
  const galleryDate = await renderedOutput(t, agent, project.id);

  const notifications: string[] = [];
  for (const what of ['gift', 'alert']) {
    const row = await t.deps.notifications.notify(user.id, {
      category: 'gift',
      title: named(`${what}-title`),
      description: named(`${what}-description`),
      action: { type: 'route', params: { route: 'Files', id: folder } },
    });
    notifications.push(row.id);
  }

  const { shares, revocable } = await seedShares(t, agent, tag);
  const requests = await seedRequests(t, agent, tag);
  const team = await seedTeam(t, agent, tag);
  const davFolder = named('dav');
  for (const parentId of [await createdFolder(agent, davFolder), team.folder]) {
    // Each WebDAV address writes in a folder of its own: /dav/ here, Nextcloud's in DAV_MOUNT_FOLDERS.
    const folders = [parentId];
    for (const name of DAV_MOUNT_FOLDERS) folders.push(await createdFolder(agent, name, parentId));
    for (const folder of folders)
      for (const what of DAV_FILES)
        await uploaded(agent, Buffer.from(`${what} ${tag}`), { name: `${what}.txt`, parentId: folder });
  }
  const dav = { ...(await davPasswords(t, user.id)), folder: davFolder, team: named('team') };
  const appPasswords: [string, string] = [
    (await t.deps.appPasswords.create(user.id, { name: named('app-password-1') })).id,
    (await t.deps.appPasswords.create(user.id, { name: named('app-password-2') })).id,
  ];
  const devices: string[] = [];
  for (const n of [1, 2]) {
    const device = await t.deps.sessions.create(user, {
      ip: '192.0.2.40',
      userAgent: `device-${n}-of-${tag}`,
    });
    const stored = await t.deps.database.db
      .selectFrom('sessions')
      .select('public_id')
      .where('id', '=', hashToken(device.token))
      .executeTakeFirstOrThrow();
    devices.push(stored.public_id);
  }

  const ids = [
    folder,
    destination,
    file,
    image,
    movable,
    disposable,
    trashedFolder,
    trashedInside,
    trashedFile,
  ];
  return {
    user,
    folder,
    destination,
    file,
    image,
    movable,
    disposable,
    trashedFolder,
    trashedFile,
    project: project.id,
    projectFolder: project.data.attributes.folder_id!,
    projectInput,
    galleryDate,
    notifications,
    shares,
    revocable,
    avatar: { key: avatar!, image: avatarImage },
    requests,
    team,
    appPasswords,
    dav,
    devices: devices as [string, string],
    // Every chosen name and text carries the tag, so the tag alone finds them all; so do links' tokens.
    secrets: [
      tag,
      user.id,
      user.email,
      ...ids,
      project.id,
      projectInput,
      ...notifications,
      ...Object.values(shares).flatMap((share) => Object.values(share)),
      ...revocable,
      ...Object.values(requests).flatMap((request) => [...Object.values(request).flat()]),
      team.folder,
      team.spare,
      team.invitation,
      ...team.dissolvable,
      team.convertible,
      ...appPasswords,
      dav.password,
      ...devices,
    ],
  };
}

/** A folder of the user's, with a folder, text files and an image inside, shared by a link made as `kind` says. */
async function seedShare(
  t: TestApp,
  agent: TestAgent,
  tag: string,
  kind: SeededShareKind,
): Promise<SeededShare> {
  const named = (what: string) => `${what}-of-${tag}-${kind}-link`;
  const folder = await createdFolder(agent, named('shared'));
  const inner = (await agent.post('/api/create-folder', { name: named('inner'), parent_id: folder })).json()
    .data.id;
  const text = async (what: string) =>
    (await uploaded(agent, Buffer.from(`${what} ${tag}`), { name: `${named(what)}.txt`, parentId: folder }))
      .id;
  const file = await text('file');
  const picture = (
    await uploaded(agent, await pngImage(), { name: `${named('image')}.png`, parentId: folder })
  ).id;
  await t.deps.thumbnails.generate(picture);
  const link = await agent.post('/api/share', {
    id: folder,
    type: 'folder',
    permission: kind === 'visitor' || kind === 'revoked' ? 'visitor' : 'editor',
    ...(kind === 'protected' ? { isPassword: true, password: SHARE_PASSWORD } : {}),
    ...(kind === 'expired' ? { expiration: 1 } : {}),
  });
  if (link.statusCode !== 201) throw new Error(`share answered ${link.statusCode}: ${link.body}`);
  const token: string = link.json().data.id;
  if (kind === 'expired') {
    // An hour-long link whose hour is over: its stored expiry moved into the past stands in for the wait.
    await t.deps.database.db
      .updateTable('shares')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('token', '=', token)
      .execute();
  }
  if (kind === 'revoked')
    await succeeded(agent.post('/api/share/revoke', { tokens: [token], _method: 'delete' }), 'revoke');
  return {
    token,
    folder,
    inner,
    file,
    image: picture,
    movable: await text('movable'),
    disposable: await text('disposable'),
    versioned: await seedShareVersions(agent, folder, named('saved')),
  };
}

async function seedShareVersions(
  agent: TestAgent,
  folderId: string,
  name: string,
): Promise<SeededShareVersions> {
  const file = await uploaded(agent, Buffer.from('save 0'), { name: `${name}.txt`, parentId: folderId });
  for (let save = 1; save <= 4; save++)
    await uploaded(agent, Buffer.from(`save ${save}`), {
      name: `${name}.txt`,
      parentId: folderId,
      conflict: 'replace',
    });
  const listed = await agent.get(`/api/files/${file.id}/versions`);
  if (listed.statusCode !== 200) throw new Error(`versions answered ${listed.statusCode}: ${listed.body}`);
  const [, read, restore, ...removable] = (listed.json().data as { id: string }[]).map(
    (version) => version.id,
  );
  return { file: file.id, read: read!, restore: restore!, remove: [removable[0]!, removable[1]!] };
}

/** The user's links: one per share kind, and the two the revoke row takes away. */
async function seedShares(t: TestApp, agent: TestAgent, tag: string) {
  const shares = {} as Record<SeededShareKind, SeededShare>;
  for (const kind of SHARE_KINDS) shares[kind] = await seedShare(t, agent, tag, kind);
  const revocable: string[] = [];
  for (const n of [1, 2]) {
    const id = await createdFolder(agent, `revocable-${n}-of-${tag}`);
    const link = await agent.post('/api/share', { id, type: 'folder', permission: 'visitor' });
    if (link.statusCode !== 201) throw new Error(`share answered ${link.statusCode}: ${link.body}`);
    revocable.push(link.json().data.id);
  }
  return { shares, revocable: revocable as [string, string] };
}

/**
 * An upload request of the user's into a folder of its own that held a file before, with a folder
 * and files sent through it by an outsider; then closed or expired as `kind` says.
 */
async function seedRequest(
  t: TestApp,
  agent: TestAgent,
  tag: string,
  kind: Exclude<SeededRequestKind, 'unknown'>,
): Promise<SeededRequest> {
  const named = (what: string) => `${what}-of-${tag}-${kind}-request`;
  const folder = await createdFolder(agent, named('requested'));
  const before = (
    await uploaded(agent, Buffer.from(`before ${tag}`), { name: `${named('before')}.txt`, parentId: folder })
  ).id;
  const open = async () => {
    const made = await agent.post('/api/file-request', { folder_id: folder, notes: named('notes') });
    if (made.statusCode !== 201) throw new Error(`file-request answered ${made.statusCode}: ${made.body}`);
    return made.json().data.id as string;
  };
  const token = await open();
  const outsider = new TestAgent(t.app, '192.0.2.99');
  await outsider.get('/api/ping');
  const inner = await outsider.post(`/api/file-request/${token}/create-folder`, { name: named('inner') });
  if (inner.statusCode !== 201)
    throw new Error(`request create-folder answered ${inner.statusCode}: ${inner.body}`);
  const sent = async (what: string) =>
    (
      await uploaded(outsider, Buffer.from(`${what} ${tag}`), {
        name: `${named(what)}.txt`,
        url: `/api/file-request/${token}/upload/chunks`,
      })
    ).id;
  const request: SeededRequest = {
    token,
    folder,
    before,
    inner: inner.json().data.id,
    file: await sent('file'),
    movable: await sent('movable'),
    disposable: await sent('disposable'),
    // A closed request has nothing to close: its own token stands for both forms.
    closable: kind === 'active' ? [await open(), await open()] : [token, token],
  };
  if (kind === 'filled') await succeeded(outsider.delete(`/api/file-request/${token}`), 'close');
  if (kind === 'expired') {
    // The stored expiry moved into the past stands in for the wait.
    await t.deps.database.db
      .updateTable('upload_requests')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', token)
      .execute();
  }
  return request;
}

/** The user's upload requests, one of each kind; `unknown` names a token that was never made. */
async function seedRequests(t: TestApp, agent: TestAgent, tag: string) {
  const active = await seedRequest(t, agent, tag, 'active');
  return {
    active,
    filled: await seedRequest(t, agent, tag, 'filled'),
    expired: await seedRequest(t, agent, tag, 'expired'),
    unknown: { ...active, token: randomUUID(), closable: [randomUUID(), randomUUID()] },
  } satisfies Record<SeededRequestKind, SeededRequest>;
}

/**
 * The user's team folders: two with a viewer and an editor who accepted (one with an invitation
 * still pending), two to dissolve, and a plain folder to convert.
 */
async function seedTeam(t: TestApp, agent: TestAgent, tag: string): Promise<SeededTeam> {
  const team = async (what: string, invitations: unknown[] = []) => {
    const made = await agent.post('/api/teams/folders', { name: `${what}-of-${tag}`, invitations });
    if (made.statusCode !== 201) throw new Error(`teams/folders answered ${made.statusCode}: ${made.body}`);
    return made.json() as { data: { id: string }; meta: { teamFolder: { invitations: { id: string }[] } } };
  };
  const main = await team('team', [{ email: `invitee-${tag}@example.test`, permission: 'can_view' }]);
  const spare = await team('spare-team');
  const members = {} as Record<TeamMemberKind, UserRow>;
  const dav = {} as Record<TeamMemberKind, DavPasswords>;
  for (const kind of TEAM_MEMBER_KINDS) {
    // Their own tag: nothing of theirs names the owner.
    const { user } = await createUser(t.deps, {
      email: `${kind}-${randomBytes(5).toString('hex')}@example.test`,
    });
    const { agent: member } = await signedInAgent(t.app, user);
    // A file of their own, as any user has.
    await uploaded(member, Buffer.from(`${kind}'s own`), { name: `${kind}.txt` });
    for (const folder of [main.data.id, spare.data.id]) {
      const invited = await agent.post(`/api/teams/folders/${folder}`, {
        _method: 'patch',
        invitations: [{ email: user.email, permission: kind === 'editor' ? 'can_edit' : 'can_view' }],
      });
      const invitation = (invited.json().meta.teamFolder.invitations as { id: string; email: string }[]).find(
        (i) => i.email === user.email,
      )!;
      await succeeded(member.put(`/api/teams/invitations/${invitation.id}`), 'accept');
    }
    // The invitations' notifications name the owner; the rows on notifications are about the member's own.
    await succeeded(member.delete('/api/notifications'), 'clear notifications');
    members[kind] = user;
    dav[kind] = await davPasswords(t, user.id);
  }
  return {
    folder: main.data.id,
    spare: spare.data.id,
    members,
    invitation: main.meta.teamFolder.invitations[0]!.id,
    dissolvable: [(await team('dissolvable-1')).data.id, (await team('dissolvable-2')).data.id],
    convertible: await createdFolder(agent, `convertible-of-${tag}`),
    dav,
    versioned: await seedVersions(agent, main.data.id, tag),
  };
}

async function seedVersions(agent: TestAgent, folderId: string, tag: string): Promise<SeededVersions> {
  const name = `saved-${tag}.txt`;
  const file = await uploaded(agent, Buffer.from('save 0'), { name, parentId: folderId });
  for (let save = 1; save <= 7; save++)
    await uploaded(agent, Buffer.from(`save ${save}`), { name, parentId: folderId, conflict: 'replace' });
  const listed = await agent.get(`/api/files/${file.id}/versions`);
  if (listed.statusCode !== 200) throw new Error(`versions answered ${listed.statusCode}: ${listed.body}`);
  const [, read, editorRestores, ownerRestores, ...removable] = (listed.json().data as { id: string }[]).map(
    (version) => version.id,
  );
  return {
    file: file.id,
    read: read!,
    restore: { teamEditor: editorRestores!, owner: ownerRestores! },
    remove: { teamEditor: [removable[0]!, removable[1]!], owner: [removable[2]!, removable[3]!] },
  };
}

async function davPasswords(t: TestApp, userId: string): Promise<DavPasswords> {
  const revoked = await t.deps.appPasswords.create(userId, { name: 'Revoked WebDAV' });
  await t.deps.appPasswords.revoke(userId, revoked.id);
  return {
    password: (await t.deps.appPasswords.create(userId, { name: 'WebDAV' })).password,
    revokedPassword: revoked.password,
  };
}

/** Seeds the owner, the stranger and the admin, each with their own files, trash, favourites, project, notifications and links. */
export async function seedUsers(t: TestApp): Promise<Seed> {
  return {
    owner: await seedUser(t, 'owner', 'user'),
    stranger: await seedUser(t, 'stranger', 'user'),
    admin: await seedUser(t, 'admin', 'admin'),
  };
}
