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
   * `alsoNamed`: other accounts the unit's rows name (a team member's WebDAV lock in the owner's
   * tree), held after the owner's for the same reason: a member's deletion takes the member's row,
   * then deletes the rows that name it.
   */
  transaction<T>(
    ownerId: string,
    work: (trx: Kysely<DB>) => Promise<T>,
    alsoNamed: readonly string[] = [],
  ): Promise<T> {
    return this.units.transaction(async (trx) => {
      for (const accountId of new Set([ownerId, ...alsoNamed]))
        if (!(await this.accounts.holdAccount(accountId)))
          throw new AppError('not_found', 'errors.not_found');
      return work(trx);
    });
  }
}
