import { randomUUID } from 'node:crypto';
import { davCredentials, type AccessRow } from './access-table';
import { ACTOR_KINDS, type ActorKind } from './actors';
import type { RouteKey } from './route-inventory';
import type { Seed } from './seed';

const SIGNED_IN: ActorKind[] = ['owner', 'stranger', 'admin', 'teamViewer', 'teamEditor'];
const BOUNDARY = 'matrix-boundary';

/**
 * The owner's upload collection as every kind calls it, with its own credentials: the owner gets
 * `owner`, everyone else signed in names another user in the path (404), the rest 401.
 */
const ownersUploads = (owner: number): Record<ActorKind, number> =>
  Object.fromEntries(
    ACTOR_KINDS.map((kind) => [kind, kind === 'owner' ? owner : SIGNED_IN.includes(kind) ? 404 : 401]),
  ) as Record<ActorKind, number>;

/** OPTIONS asks what the address speaks: answered before sign-in, as for the rest of WebDAV. */
const everyone200 = () =>
  Object.fromEntries(ACTOR_KINDS.map((kind) => [kind, 200])) as Record<ActorKind, number>;

/**
 * The signed-in kinds call with their own app password; the rest with none (401). Wrong credentials
 * (the account password, a revoked or wrong app password) are refused by the same sign-in as every
 * WebDAV address, which /dav/'s rows try on every method; sending them here too would run into
 * sign-in's throttle (webdav-chunked-uploads.test.ts tries them on these routes).
 */
function credentials(s: Seed, kind: ActorKind): Record<string, string> {
  const authorization = SIGNED_IN.includes(kind) ? davCredentials(s, kind, 0) : undefined;
  return authorization ? { authorization } : {};
}

/**
 * The sync clients' chunked uploads (`/remote.php/dav/uploads/{user}/…`) and bulk upload: each kind
 * names the owner in the path, so the stranger, the admin and the members name someone else and are
 * answered 404 whatever the method; the account password, a revoked or wrong app password get 401.
 * The owner's calls reach the handlers: a new transfer is made (201), its collection listed (207), and
 * the calls on a transfer that is not there answer as a client that lost it would be (404, 409).
 */
export function chunkedUploadRows(): AccessRow[] {
  const at = (s: Seed) => ({ user: s.owner.user.email });
  const rows: {
    route: RouteKey;
    call: (s: Seed) => { path?: string; headers?: Record<string, string>; payload?: string };
    expect: Record<ActorKind, number>;
    changes?: boolean;
  }[] = [
    { route: 'OPTIONS /remote.php/dav/uploads/:user', call: () => ({}), expect: everyone200() },
    {
      route: 'PROPFIND /remote.php/dav/uploads/:user',
      call: () => ({ headers: { depth: '1' } }),
      expect: ownersUploads(207),
    },
    {
      route: 'OPTIONS /remote.php/dav/uploads/:user/*',
      call: () => ({ path: 'x/' }),
      expect: everyone200(),
    },
    {
      route: 'MKCOL /remote.php/dav/uploads/:user/*',
      call: () => ({ path: `matrix-${randomUUID()}` }),
      expect: ownersUploads(201),
    },
    {
      route: 'PROPFIND /remote.php/dav/uploads/:user/*',
      call: () => ({ path: 'no-such-transfer/', headers: { depth: '1' } }),
      expect: ownersUploads(404),
    },
    {
      route: 'PUT /remote.php/dav/uploads/:user/*',
      call: () => ({ path: 'no-such-transfer/0000000000000000', payload: 'chunk' }),
      expect: ownersUploads(409),
    },
    {
      route: 'MOVE /remote.php/dav/uploads/:user/*',
      call: (s) => ({
        path: 'no-such-transfer/.file',
        headers: { destination: `/remote.php/dav/files/${s.owner.user.email}/assembled.bin` },
      }),
      expect: ownersUploads(404),
    },
    {
      route: 'DELETE /remote.php/dav/uploads/:user/*',
      call: () => ({ path: 'no-such-transfer/' }),
      expect: ownersUploads(404),
    },
  ];
  return [
    ...rows.map(({ route, call, expect }): AccessRow => ({
      route,
      request: (s, held) => {
        const { path, headers, payload } = call(s);
        return {
          params: { ...at(s), ...(path !== undefined ? { '*': path } : {}) },
          headers: { ...headers, ...credentials(s, held.kind) },
          ...(payload !== undefined ? { payload } : {}),
        };
      },
      expect,
    })),
    {
      // No `{user}` here: everyone signed in sends into their own files (an empty batch, answered `{}`).
      route: 'POST /remote.php/dav/bulk',
      request: (s, held) => ({
        headers: {
          'content-type': `multipart/related; boundary=${BOUNDARY}`,
          ...credentials(s, held.kind),
        },
        payload: `--${BOUNDARY}--\r\n`,
      }),
      expect: Object.fromEntries(
        ACTOR_KINDS.map((kind) => [kind, SIGNED_IN.includes(kind) ? 200 : 401]),
      ) as Record<ActorKind, number>,
    },
  ];
}
