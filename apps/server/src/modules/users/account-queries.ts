import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * The users module's table as other modules' queries join it, so a sign-in's session or app password,
 * a team's members or billing's lists stay one statement while only this module names `users`. Each
 * is a derived table the planners flatten into the join.
 */

/** Every account, whole: what a session or an app password signs in as. */
export function accountRows(db: Kysely<DB>) {
  return db.selectFrom('users').selectAll('users');
}

/** Every account as others see it: name, address and avatar. */
export function accountCards(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .select(['users.id', 'users.name', 'users.email', 'users.avatar', 'users.color']);
}

/**
 * Every account's sign-in secrets, for a write that must not race a change of them: a session
 * started while the password is the one proved, a second factor set up while none is confirmed.
 */
export function accountCredentials(db: Kysely<DB>) {
  return db.selectFrom('users').select(['users.id', 'users.password_hash', 'users.two_factor_confirmed_at']);
}
