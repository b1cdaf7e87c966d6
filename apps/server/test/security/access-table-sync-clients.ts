import { davCredentials, type AccessRow, type Held, type RequestSpec } from './access-table';
import { ACTOR_KINDS, type ActorKind } from './actors';
import type { RouteKey } from './route-inventory';
import type { Seed } from './seed';

const OCS_HEADER = { 'ocs-apirequest': 'true' };

const SIGNED_IN: ActorKind[] = ['owner', 'stranger', 'admin', 'teamViewer', 'teamEditor'];
/**
 * The credentials each kind signs in to the OCS API with: the signed-in kinds their own app
 * password, everyone else none. (Wrong ones, the account password and revoked app passwords are
 * ocs.test.ts's: the WebDAV rows already bring each link holder's address near sign-in's throttle.)
 */
const ocsCredentials = (s: Seed, kind: ActorKind) =>
  SIGNED_IN.includes(kind) ? davCredentials(s, kind, 0) : undefined;

const answers = (signedIn: number, others: number): Record<ActorKind, number> =>
  Object.fromEntries(
    ACTOR_KINDS.map((kind) => [kind, SIGNED_IN.includes(kind) ? signedIn : others]),
  ) as Record<ActorKind, number>;

/** No flow has this token, for the page's calls and the poll alike. */
const UNKNOWN_FLOW = 'no-such-flow-token';

/**
 * The sync clients' calls: status.php is anyone's; the capabilities are open with the OCS header
 * (called without credentials by all but the signed-in kinds); `cloud/user` answers each signed-in
 * kind about their own account and refuses anyone else, v1 and v2 alike (v1 keeps 401).
 * Anyone may start a login flow; a token nobody was given is 404 to the poll and, behind sign-in,
 * to the page's calls (login-flow.test.ts walks a flow through).
 */
export function syncClientRows(): AccessRow[] {
  const rows: AccessRow[] = [
    { route: 'GET /status.php', expect: answers(200, 200) },
    { route: 'POST /index.php/login/v2', expect: answers(200, 200) },
    {
      route: 'POST /index.php/login/v2/poll',
      request: () => ({ body: { token: UNKNOWN_FLOW } }),
      expect: answers(404, 404),
    },
    ...(
      [
        'GET /api/login-flows/:token',
        'POST /api/login-flows/:token/grant',
        'POST /api/login-flows/:token/refuse',
      ] as const
    ).map((route): AccessRow => ({
      route,
      request: () => ({ params: { token: UNKNOWN_FLOW } }),
      expect: answers(404, 401),
    })),
  ];
  for (const version of ['v1', 'v2'] as const) {
    rows.push({
      route: `GET /ocs/${version}.php/cloud/capabilities` as RouteKey,
      request: (s, held) => {
        const authorization = ocsCredentials(s, held.kind);
        return {
          query: { format: 'json' },
          headers: { ...OCS_HEADER, ...(authorization ? { authorization } : {}) },
        };
      },
      expect: answers(200, 200),
    });
    rows.push({
      route: `GET /ocs/${version}.php/cloud/user` as RouteKey,
      request: (s, held) => {
        const authorization = ocsCredentials(s, held.kind);
        return {
          query: { format: 'json' },
          headers: { ...OCS_HEADER, ...(authorization ? { authorization } : {}) },
        };
      },
      expect: answers(200, 401),
    });
  }
  for (const version of ['v1', 'v2'] as const) rows.push(...shareRows(version));
  return rows;
}

/**
 * The share menu's calls, as each kind's own account (the link holders with no account: 401). The
 * owner's link (the visitor link) is the owner's alone to see and change; a path names the caller's
 * own files, so only the owner's makes a link of the owner's folder (once: v2 finds it shared).
 * Revoking names a link no longer there. v1 keeps its refusals inside HTTP 200, as Nextcloud's does.
 */
function shareRows(version: 'v1' | 'v2'): AccessRow[] {
  const shares = `/ocs/${version}.php/apps/files_sharing/api/v1/shares`;
  const refused = (status: number) => (version === 'v1' ? 200 : status);
  const call =
    (spec: (s: Seed) => Omit<RequestSpec, 'headers'>) =>
    (s: Seed, held: Held): RequestSpec => {
      const authorization = ocsCredentials(s, held.kind);
      return { ...spec(s), headers: { ...OCS_HEADER, ...(authorization ? { authorization } : {}) } };
    };
  const ownerOnly = (status: number) => ({ ...answers(refused(404), 401), owner: status });
  return [
    {
      route: `GET ${shares}` as RouteKey,
      request: call(() => ({ query: { format: 'json' } })),
      expect: answers(200, 401),
    },
    {
      route: `POST ${shares}` as RouteKey,
      request: call((s) => ({
        query: { format: 'json' },
        body: { path: `/${s.owner.dav.folder}`, shareType: 3 },
      })),
      expect: ownerOnly(version === 'v1' ? 200 : 400),
    },
    {
      route: `GET ${shares}/:id` as RouteKey,
      request: call((s) => ({ params: { id: s.owner.shares.visitor.token }, query: { format: 'json' } })),
      expect: ownerOnly(200),
    },
    {
      route: `PUT ${shares}/:id` as RouteKey,
      request: call((s) => ({
        params: { id: s.owner.shares.visitor.token },
        query: { format: 'json' },
        body: { expireDate: '' },
      })),
      expect: ownerOnly(200),
    },
    {
      route: `DELETE ${shares}/:id` as RouteKey,
      request: call((s) => ({ params: { id: s.owner.shares.revoked.token }, query: { format: 'json' } })),
      expect: answers(refused(404), 401),
    },
  ];
}
