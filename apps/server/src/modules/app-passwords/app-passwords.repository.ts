import type { Database } from '../../db/database';
import { preparedQuery } from '../../db/prepared-query';
import type { UserRow } from '../../db/schema';
import { accountRows } from '../users/account-queries';
import type { AppPasswordRow, NewAppPassword } from './app-passwords.tables';

/** WebDAV and the sync clients sign in with an app password on every request: compiled once. */
const signInCandidates = preparedQuery((db, wanted: { email: string; lookup: string }) =>
  db
    .selectFrom('app_passwords')
    .innerJoin(accountRows(db).as('account'), 'account.id', 'app_passwords.user_id')
    .selectAll('account')
    .select([
      'app_passwords.id as app_password_id',
      'app_passwords.password_hash as app_password_hash',
      'app_passwords.last_used_at as app_password_last_used_at',
    ])
    .where('account.email', '=', wanted.email)
    .where('app_passwords.lookup', '=', wanted.lookup),
);

/** An app password that may be the one supplied at sign-in, with its user. */
export interface SignInCandidate {
  user: UserRow;
  appPassword: Pick<AppPasswordRow, 'id' | 'password_hash' | 'last_used_at'>;
}

export class AppPasswordsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** The user's app passwords, newest first. */
  listForUser(userId: string): Promise<AppPasswordRow[]> {
    return this.db
      .selectFrom('app_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async countForUser(userId: string): Promise<number> {
    const { count } = await this.db
      .selectFrom('app_passwords')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  insert(row: NewAppPassword): Promise<AppPasswordRow> {
    return this.db.insertInto('app_passwords').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Deletes the user's app password; false when the user has none of that id. */
  async deleteForUser(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('app_passwords')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAllForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
  }

  /** The app passwords of the account with this (lowercased) e-mail whose first group is `lookup`. */
  async findForSignIn(email: string, lookup: string): Promise<SignInCandidate[]> {
    const rows = await signInCandidates(this.database, { email, lookup });
    return rows.map(({ app_password_id, app_password_hash, app_password_last_used_at, ...user }) => ({
      user,
      appPassword: {
        id: app_password_id,
        password_hash: app_password_hash,
        last_used_at: app_password_last_used_at,
      },
    }));
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('app_passwords').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
