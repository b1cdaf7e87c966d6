import { NotificationList } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { UserRow } from '../../../src/db/schema';
import { uploaded } from '../../files/files-harness';
import type { TestAgent } from '../../support/agent';
import type { DatabaseKind } from '../../support/databases';
import { createSession, createUser, signedInAgent } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { connectSocket, eventAfter, recordEvents, type ClientSocket } from './sockets';

/** How soon an open listing must hear of a change once the write is answered. */
export const WITHIN_MS = 1_000;

/** A signed-in user with a tab open: an agent for their calls, a socket recording every event. */
export interface Person {
  user: UserRow;
  agent: TestAgent;
  socket: ClientSocket;
  events: Array<{ event: string; payload: unknown }>;
}

/**
 * A listening app for the suite (PostgreSQL runs as the scaled-out shape, events going through the
 * Redis adapter) and the people on it; their sockets close after each test.
 */
export function realtimePeople(kind: DatabaseKind) {
  const sockets: ClientSocket[] = [];
  const suite = {
    t: undefined as unknown as TestApp,
    baseUrl: '',
    async person(name: string): Promise<Person> {
      const { user } = await createUser(suite.t.deps, { name, storageCapacity: 10_000_000 });
      const { agent } = await signedInAgent(suite.t.app, user);
      const socket = await connectSocket(suite.baseUrl, { session: await createSession(suite.t.deps, user) });
      sockets.push(socket);
      return { user, agent, socket, events: recordEvents(socket) };
    },
  };
  beforeAll(async () => {
    suite.t = await createTestApp({ database: kind, redis: kind === 'postgres' });
    suite.baseUrl = await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(() => suite.t.close());
  return suite;
}

/** The `items.changed` a person has heard so far. */
export function changesOf(who: Person) {
  return who.events.filter((e) => e.event === 'items.changed');
}

/** The invitee accepts the team invitation their notification carries. */
export async function acceptInvitation(invitee: Person): Promise<void> {
  const [invitation] = NotificationList.parse((await invitee.agent.get('/api/notifications')).json()).data;
  const action = invitation!.attributes.action;
  if (action?.type !== 'invitation') throw new Error('no invitation action');
  expect((await invitee.agent.put(`/api/teams/invitations/${action.params.id}`)).statusCode).toBe(204);
}

/**
 * The person uploads a file of their own and hears of it. Their socket keeps the server's order, so
 * once this resolves, whatever was sent to them before has arrived too.
 */
export async function hearOwnChange(who: Person): Promise<void> {
  await expect(
    eventAfter(
      who.socket,
      'items.changed',
      () => uploaded(who.agent, randomBytes(10), { name: 'mine.txt' }),
      WITHIN_MS,
    ),
  ).resolves.toEqual({ owner_id: who.user.id });
}
