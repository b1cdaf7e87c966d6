import type { Database } from '../../db/database';
import { accountCredentials } from '../users/account-queries';
import type { TwoFactorCredentialRow } from './two-factor.tables';

/** TOTP secrets, their last accepted step and the hashed recovery codes. */
export class TwoFactorRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  findCredential(userId: string): Promise<TwoFactorCredentialRow | undefined> {
    return this.db
      .selectFrom('two_factor_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Holds the user's credential row until the unit of work ends, so a setup begun and one confirmed
   * take turns (PostgreSQL; SQLite's one writer already does).
   */
  async lockCredential(userId: string): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    await this.db
      .selectFrom('two_factor_credentials')
      .select('user_id')
      .where('user_id', '=', userId)
      .forUpdate()
      .execute();
  }

  /**
   * A new pending secret, replacing one that was never confirmed; false, and nothing written, once
   * two-factor sign-in is on (the account's switch as it is now, not as the caller read it).
   */
  async savePendingSecret(userId: string, secret: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('two_factor_credentials')
      .values({ user_id: userId, secret, last_used_step: null, created_at: now })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({ secret, last_used_step: null, created_at: now })
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom(accountCredentials(this.db).as('account'))
                  .select('account.id')
                  .where('account.id', '=', userId)
                  .where('account.two_factor_confirmed_at', 'is not', null),
              ),
            ),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Records `step` as used unless it (or a later one) already was; false when another request got
   * there first. One conditional update, so two requests with the same code cannot both pass.
   */
  async useStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor_credentials')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
        .execute();
    });
  }

  /** Deletes the code if the user holds it; true only for the one request that deleted it. */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('two_factor_recovery_codes')
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  async countRecoveryCodes(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The secret and the recovery codes go (two-factor sign-in off, or a pending secret dropped). */
  async remove(userId: string): Promise<void> {
    await this.database.transaction(async (trx) => {
      await trx.deleteFrom('two_factor_credentials').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    });
  }
}
