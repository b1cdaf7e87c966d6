import type { FastifyInstance } from 'fastify';
import { TestAgent } from '../support/agent';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { createSession, signedInAgent } from '../support/factories';
import {
  SHARE_PASSWORD,
  type Seed,
  type SeededRequest,
  type SeededRequestKind,
  type SeededShare,
  type SeededShareKind,
  type SeededUserName,
  type TeamMemberKind,
} from './seed';

/**
 * The kinds of caller every route is tried with. A new kind (team can_view, team can_edit) is added
 * here with its client below; the compiler then asks every row of the access table for its answer
 * to it. The share kinds hold a link of the owner's and the request kinds an upload request's, and
 * nothing else: to every other route they are anonymous.
 */
export const ACTOR_KINDS = [
  'anonymous',
  'stranger',
  'admin',
  'shareVisitor',
  'shareExpired',
  'shareLocked',
  'shareUnlocked',
  'shareEditor',
  'requestActive',
  'requestFilled',
  'requestExpired',
  'teamViewer',
  'teamEditor',
  'owner',
] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface Actor {
  kind: ActorKind;
  agent: TestAgent;
  /** The seeded user the actor is, whose own data it may see; none for anonymous callers. */
  self?: SeededUserName;
  /** The owner's link the actor holds: the share kinds theirs, everyone else one that was revoked. */
  share: SeededShare;
  /** The owner's upload request the actor holds: the request kinds theirs, everyone else an unknown one. */
  request: SeededRequest;
  /** The address the actor calls from, when not the default one. */
  address?: string;
}

/** The seeded user each signed-in kind is. */
const SELF: Partial<Record<ActorKind, SeededUserName>> = {
  stranger: 'stranger',
  admin: 'admin',
  owner: 'owner',
};

/** The link each kind holds; the protected link is opened with its password by `shareUnlocked` only. */
const LINK: Record<ActorKind, SeededShareKind> = {
  anonymous: 'revoked',
  stranger: 'revoked',
  admin: 'revoked',
  owner: 'revoked',
  shareVisitor: 'visitor',
  shareEditor: 'editor',
  shareExpired: 'expired',
  shareLocked: 'protected',
  shareUnlocked: 'protected',
  requestActive: 'revoked',
  requestFilled: 'revoked',
  requestExpired: 'revoked',
  teamViewer: 'revoked',
  teamEditor: 'revoked',
};

/** The members of the owner's team folders: signed-in users with nothing of their own. */
const MEMBER: Partial<Record<ActorKind, TeamMemberKind>> = { teamViewer: 'viewer', teamEditor: 'editor' };

/** The upload request each kind holds. */
const REQUEST: Partial<Record<ActorKind, SeededRequestKind>> = {
  requestActive: 'active',
  requestFilled: 'filled',
  requestExpired: 'expired',
};

/** Each share kind calls from its own address, so per-address throttles (sign-in, link passwords) count each kind apart. */
const ADDRESS: Partial<Record<ActorKind, string>> = {
  shareVisitor: '192.0.2.11',
  shareExpired: '192.0.2.12',
  shareLocked: '192.0.2.13',
  shareUnlocked: '192.0.2.14',
  shareEditor: '192.0.2.15',
  requestActive: '192.0.2.21',
  requestFilled: '192.0.2.22',
  requestExpired: '192.0.2.23',
  teamViewer: '192.0.2.31',
  teamEditor: '192.0.2.32',
};

/**
 * A fresh client for one call, so a call that signs out or rotates a session cannot change the
 * next one. Like a browser, it has loaded a page (and so holds its XSRF cookie) before it calls.
 */
export async function actorFor(app: FastifyInstance, seed: Seed, kind: ActorKind): Promise<Actor> {
  const self = SELF[kind];
  const share = seed.owner.shares[LINK[kind]];
  const request = seed.owner.requests[REQUEST[kind] ?? 'unknown'];
  if (self) return { kind, self, share, request, agent: (await signedInAgent(app, seed[self].user)).agent };
  const member = MEMBER[kind];
  if (member) {
    const agent = new TestAgent(app, ADDRESS[kind]);
    agent.setCookie(SESSION_COOKIE, await createSession(app.deps, seed.owner.team.members[member]));
    await agent.get('/api/ping');
    return { kind, share, request, agent, address: ADDRESS[kind] };
  }
  const address = ADDRESS[kind];
  const agent = new TestAgent(app, address);
  await agent.get('/api/ping');
  if (kind === 'shareUnlocked') {
    const opened = await agent.post(`/api/sharing/authenticate/${share.token}`, { password: SHARE_PASSWORD });
    if (opened.statusCode !== 204)
      throw new Error(`the link password answered ${opened.statusCode}: ${opened.body}`);
  }
  return { kind, agent, share, request, address };
}
