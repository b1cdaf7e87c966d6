import type { AccessRow } from './access-table';
import { ACTOR_KINDS, type ActorKind } from './actors';
import type { RouteKey } from './route-inventory';
import type { Seed } from './seed';

const OCS_HEADER = { 'ocs-apirequest': 'true' };

const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/**
 * The credentials each kind signs in to the OCS API with: the signed-in kinds their own app
 * password, everyone else none. (Wrong ones, the account password and revoked app passwords are
 * ocs.test.ts's: the WebDAV rows already bring each link holder's address near sign-in's throttle.)
 */
function ocsCredentials(s: Seed, kind: ActorKind): string | undefined {
  switch (kind) {
    case 'owner':
    case 'stranger':
    case 'admin':
      return basic(s[kind].user.email, s[kind].dav.password);
    case 'teamViewer':
    case 'teamEditor': {
      const member = kind === 'teamViewer' ? 'viewer' : 'editor';
      return basic(s.owner.team.members[member].email, s.owner.team.dav[member].password);
    }
    default:
      return undefined;
  }
}

const SIGNED_IN: ActorKind[] = ['owner', 'stranger', 'admin', 'teamViewer', 'teamEditor'];
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
  return rows;
}
