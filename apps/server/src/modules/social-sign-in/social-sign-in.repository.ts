import type { Database } from '../../db/database';
import type {
  SocialAccountRow,
  SocialAccountsTable,
  SocialSignInRequestRow,
  SocialSignInRequestsTable,
} from './social-sign-in.tables';

/** Linked provider identities, pending provider round trips and generated passwords. */
export class SocialSignInRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async insertRequest(row: SocialSignInRequestsTable): Promise<void> {
    await this.db.insertInto('social_sign_in_requests').values(row).execute();
  }

  /**
   * Takes the request out (so a `state` works once) and returns it when it was there and had not
   * expired; expired ones of any state are swept on the way.
   */
  async takeRequest(id: string, now: string): Promise<SocialSignInRequestRow | undefined> {
    await this.db.deleteFrom('social_sign_in_requests').where('expires_at', '<=', now).execute();
    return this.db
      .deleteFrom('social_sign_in_requests')
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  findAccount(provider: string, subject: string): Promise<SocialAccountRow | undefined> {
    return this.db
      .selectFrom('social_accounts')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  accountsOf(userId: string): Promise<SocialAccountRow[]> {
    return this.db
      .selectFrom('social_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  async insertAccount(row: SocialAccountsTable): Promise<void> {
    await this.db.insertInto('social_accounts').values(row).execute();
  }

  async deleteAccount(userId: string, provider: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('social_accounts')
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertGeneratedPassword(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .insertInto('social_generated_passwords')
      .values({ user_id: userId, password_hash: passwordHash })
      .execute();
  }

  async generatedPassword(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('social_generated_passwords')
      .select('password_hash')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.password_hash;
  }
}
