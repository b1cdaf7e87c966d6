import { davCredentials, type AccessRow } from './access-table';
import { ACTOR_KINDS, type ActorKind } from './actors';
import type { HttpMethod, RouteKey } from './route-inventory';
import type { Seed } from './seed';

const SIGNED_IN: ActorKind[] = ['owner', 'stranger', 'admin', 'teamViewer', 'teamEditor'];
const MEMBERS: ActorKind[] = ['teamViewer', 'teamEditor'];
/**
 * The one credential slot of davCredentials these rows send wrong credentials with (the link
 * holders' account password, revoked, wrong and another person's app password), on one row: slot 20
 * names the owner, whom the other WebDAV and OCS rows leave a failure short of sign-in's throttle
 * (5 a minute per e-mail and address). The other rows send the link holders none (401 all the same).
 */
const WRONG_CREDENTIALS_SLOT = 20;

/** The owner's answer, the members' (who name themselves in the path), 404 for the stranger and the admin (who name the owner), 401 for the rest. */
function answers(owner: number, members = 404): Record<ActorKind, number> {
  return Object.fromEntries(
    ACTOR_KINDS.map((kind) => [
      kind,
      kind === 'owner' ? owner : MEMBERS.includes(kind) ? members : SIGNED_IN.includes(kind) ? 404 : 401,
    ]),
  ) as Record<ActorKind, number>;
}

/** The `{user}` each kind names: the members themselves, everyone else the owner. */
function userIn(s: Seed, kind: ActorKind): string {
  if (kind === 'teamViewer') return s.owner.team.members.viewer.id;
  if (kind === 'teamEditor') return s.owner.team.members.editor.id;
  return s.owner.user.email;
}

interface CollectionRow {
  method: HttpMethod;
  /** The path below `{user}/` and the headers, given the `{prefix}/{user}` the call is under. */
  call: (s: Seed, kind: ActorKind, home: string) => { path: string; headers?: Record<string, string> };
  expect: Record<ActorKind, number>;
  wrongCredentials?: boolean;
  reads?: boolean;
}

function collectionRows(prefix: string, rows: CollectionRow[]): AccessRow[] {
  return rows.map(({ method, call, expect, wrongCredentials, reads }) => ({
    route: `${method} ${prefix}/:user/*` as RouteKey,
    request: (s, held) => {
      const user = userIn(s, held.kind);
      const { path, headers } = call(s, held.kind, `${prefix}/${encodeURIComponent(user)}`);
      const authorization =
        SIGNED_IN.includes(held.kind) || wrongCredentials
          ? davCredentials(s, held.kind, WRONG_CREDENTIALS_SLOT)
          : undefined;
      return {
        params: { user, '*': path },
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
      };
    },
    expect,
    ...(reads ? { seesOwnerData: MEMBERS } : {}),
  }));
}

/**
 * Nextcloud's trash bin over WebDAV: the owner's own, which nobody else reaches (the members call
 * with their own `{user}` and the owner's entry). Run after the remove row trashed `disposable`, and
 * before the restore and empty-trash rows: GET reads it, MOVE restores it, DELETE deletes the
 * trashed folder for good.
 */
export function davTrashRows(): AccessRow[] {
  const entry = (id: string) => `trash/${id}`;
  const restoreTo = (home: string) => ({ destination: `http://localhost:80${home}/restore/item` });
  return collectionRows('/remote.php/dav/trashbin', [
    {
      method: 'OPTIONS',
      call: () => ({ path: 'trash/' }),
      expect: Object.fromEntries(ACTOR_KINDS.map((kind) => [kind, 200])) as Record<ActorKind, number>,
    },
    {
      method: 'PROPFIND',
      call: (s, kind) => ({
        path: MEMBERS.includes(kind) ? `${entry(s.owner.trashedFolder)}/` : 'trash/',
        headers: { depth: '1' },
      }),
      expect: answers(207),
      wrongCredentials: true,
    },
    { method: 'GET', call: (s) => ({ path: entry(s.owner.disposable) }), expect: answers(200) },
    {
      // Restoring leaves the trash: a copy is refused.
      method: 'COPY',
      call: (s, _kind, home) => ({ path: entry(s.owner.disposable), headers: restoreTo(home) }),
      expect: answers(405),
    },
    {
      method: 'MOVE',
      call: (s, _kind, home) => ({ path: entry(s.owner.disposable), headers: restoreTo(home) }),
      expect: answers(201),
    },
    { method: 'DELETE', call: (s) => ({ path: entry(s.owner.trashedFolder) }), expect: answers(204) },
  ]);
}

/**
 * A file's versions over WebDAV, the team folder's versioned file: members read them, editors
 * restore them. Run after the versions API's rows, so the version each restores is the one that
 * row made current (restoring it again changes nothing, 201) and the DELETE names the current
 * version, which no one may delete (400 once allowed past who may change the file).
 */
export function davVersionsRows(): AccessRow[] {
  const file = (s: Seed) => `versions/${s.owner.team.versioned.file}`;
  const restored = (s: Seed, kind: ActorKind) =>
    s.owner.team.versioned.restore[kind === 'teamEditor' ? 'teamEditor' : 'owner'];
  const restoreTo = (home: string) => ({ destination: `${home}/restore/target` });
  return collectionRows('/remote.php/dav/versions', [
    {
      method: 'OPTIONS',
      call: (s) => ({ path: `${file(s)}/` }),
      expect: Object.fromEntries(ACTOR_KINDS.map((kind) => [kind, 200])) as Record<ActorKind, number>,
    },
    {
      method: 'PROPFIND',
      call: (s) => ({ path: `${file(s)}/`, headers: { depth: '1' } }),
      expect: answers(207, 207),
      reads: true,
    },
    {
      method: 'GET',
      call: (s) => ({ path: `${file(s)}/${s.owner.team.versioned.read}` }),
      expect: answers(200, 200),
      reads: true,
    },
    {
      method: 'COPY',
      call: (s, kind, home) => ({ path: `${file(s)}/${restored(s, kind)}`, headers: restoreTo(home) }),
      expect: { ...answers(201), teamViewer: 403, teamEditor: 201 },
      reads: true,
    },
    {
      method: 'MOVE',
      call: (s, kind, home) => ({ path: `${file(s)}/${restored(s, kind)}`, headers: restoreTo(home) }),
      expect: { ...answers(201), teamViewer: 403, teamEditor: 201 },
      reads: true,
    },
    {
      method: 'DELETE',
      call: (s, kind) => ({ path: `${file(s)}/${restored(s, kind)}` }),
      expect: { ...answers(400), teamViewer: 403, teamEditor: 400 },
    },
  ]);
}

/** Nextcloud's previews of the owner's image: the owner's alone, by id whichever address asks. */
export function davPreviewRows(): AccessRow[] {
  return (['/index.php/core/preview', '/index.php/core/preview.png'] as const).map((url) => ({
    route: `GET ${url}` as RouteKey,
    request: (s, held) => {
      const authorization = SIGNED_IN.includes(held.kind)
        ? davCredentials(s, held.kind, WRONG_CREDENTIALS_SLOT)
        : undefined;
      return {
        query: { fileId: s.owner.image, x: '64', y: '64' },
        headers: authorization ? { authorization } : ({} as Record<string, string>),
      };
    },
    expect: answers(200),
  }));
}
