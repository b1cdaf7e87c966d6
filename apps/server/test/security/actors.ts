import type { FastifyInstance } from 'fastify';
import { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import type { Seed, SeededUserName } from './seed';

/**
 * The kinds of caller every route is tried with. A new kind (share visitor, share editor, expired
 * share, closed upload request, team can_view, team can_edit) is added here with its client below;
 * the compiler then asks every row of the access table for its answer to it.
 */
export const ACTOR_KINDS = ['anonymous', 'stranger', 'admin', 'owner'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface Actor {
  kind: ActorKind;
  agent: TestAgent;
  /** The seeded user the actor is, whose own data it may see; none for anonymous callers. */
  self?: SeededUserName;
}

/** The seeded user each signed-in kind is. */
const SELF: Partial<Record<ActorKind, SeededUserName>> = {
  stranger: 'stranger',
  admin: 'admin',
  owner: 'owner',
};

/**
 * A fresh client for one call, so a call that signs out or rotates a session cannot change the
 * next one. Like a browser, it has loaded a page (and so holds its XSRF cookie) before it calls.
 */
export async function actorFor(app: FastifyInstance, seed: Seed, kind: ActorKind): Promise<Actor> {
  const self = SELF[kind];
  if (self) return { kind, self, agent: (await signedInAgent(app, seed[self].user)).agent };
  const agent = new TestAgent(app);
  await agent.get('/api/ping');
  return { kind, agent };
}
