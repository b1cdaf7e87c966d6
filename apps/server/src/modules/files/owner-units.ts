import type { Kysely } from 'kysely';
import type { UnitOfWork } from '../../db/database';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { AccountHolds } from './files.ports';

/**
 * Units of work on an owner's rows, each holding the owner's account first (AccountHolds), before
 * any other lock. An account's deletion takes the account's row before the rows it deletes; a unit
 * that locked one of the owner's rows first (its usage, a file, a version) and named the account
 * only after (any row with a foreign key to it, the usage's recount included) would deadlock with a
 * deletion under way on PostgreSQL, one of the two failing. Taken first, the hold makes the deletion
 * wait for the unit, or the unit for the deletion, which then answers not_found, writing nothing.
 */
export class OwnerUnits {
  constructor(
    private readonly units: UnitOfWork,
    private readonly accounts: AccountHolds,
  ) {}

  /**
   * `savedBy`: the account that saves, when the unit's rows name it besides the owner (a team
   * member's file content or WebDAV lock in the owner's tree), held after the owner's for the same
   * reason: that account's deletion takes its row, then changes the rows that name it.
   */
  transaction<T>(
    ownerId: string,
    work: (trx: Kysely<DB>) => Promise<T>,
    savedBy?: string | null,
  ): Promise<T> {
    return this.units.transaction(async (trx) => {
      for (const accountId of new Set([ownerId, savedBy ?? ownerId]))
        if (!(await this.accounts.holdAccount(accountId)))
          throw new AppError('not_found', 'errors.not_found');
      return work(trx);
    });
  }
}
