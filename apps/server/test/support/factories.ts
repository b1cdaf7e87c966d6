import { randomUUID } from 'node:crypto';
import type { Role } from '@atelier/contracts';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../src/db/schema';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import type { AppDeps } from '../../src/services';
import { TestAgent } from './agent';

export const DEFAULT_PASSWORD = 'correct horse battery';

export interface UserOverrides {
  name?: string;
  email?: string;
  password?: string;
  role?: Role;
  emailVerified?: boolean;
  /** ISO date; e.g. before 19 March 2024 to get dateStatus true with the default settings. */
  createdAt?: string;
  storageCapacity?: number | null;
}

/** A user with a unique e-mail; the plain password comes back for sign-in tests. */
export async function createUser(
  deps: AppDeps,
  overrides: UserOverrides = {},
): Promise<{ user: UserRow; password: string }> {
  const password = overrides.password ?? DEFAULT_PASSWORD;
  let user = await deps.users.create({
    name: overrides.name ?? 'Test User',
    email: overrides.email ?? `user-${randomUUID()}@example.test`,
    password,
    role: overrides.role ?? 'user',
    emailVerified: overrides.emailVerified ?? true,
  });
  if (overrides.createdAt !== undefined || overrides.storageCapacity !== undefined) {
    await deps.database.db
      .updateTable('users')
      .set({
        ...(overrides.createdAt !== undefined ? { created_at: overrides.createdAt } : {}),
        ...(overrides.storageCapacity !== undefined ? { storage_capacity: overrides.storageCapacity } : {}),
      })
      .where('id', '=', user.id)
      .execute();
    user = (await deps.users.findById(user.id))!;
  }
  return { user, password };
}

/** A live session for the user; returns the raw cookie value. */
export async function createSession(deps: AppDeps, user: UserRow): Promise<string> {
  const { token } = await deps.sessions.create(user, { ip: '127.0.0.1', userAgent: 'vitest' });
  return token;
}

/** An agent signed in as the user (a fresh one when none is given), carrying the session and XSRF cookies. */
export async function signedInAgent(
  app: FastifyInstance,
  user?: UserRow,
): Promise<{ agent: TestAgent; user: UserRow }> {
  const owner = user ?? (await createUser(app.deps)).user;
  const agent = new TestAgent(app);
  agent.setCookie(SESSION_COOKIE, await createSession(app.deps, owner));
  await agent.get('/api/ping');
  return { agent, user: owner };
}
