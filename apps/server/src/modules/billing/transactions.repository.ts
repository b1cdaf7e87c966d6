import type { TransactionStatus, TransactionType } from '@atelier/contracts';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/database';
import type { DB } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import type { TransactionRow, TransactionsTable } from './billing.tables';

export interface TransactionFilter {
  userId?: string;
  search?: string;
  type?: TransactionType;
  status?: TransactionStatus;
  driver?: string;
  since?: string;
}

/** A balance is kept in one currency: an amount in another would move it by a meaningless number. */
export class BalanceCurrencyMismatch extends Error {
  override name = 'BalanceCurrencyMismatch';
}

/** Billing's transactions and balances. Kysely only. */
export class TransactionsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Stores the transaction unless its driver already has one of that reference (a payment reported
   * twice); answers the stored row, or undefined when it was a repeat. With `credit`, the balance
   * moves in the same database transaction, so the two never disagree; a balance held in another
   * currency is left as it is and nothing is stored (BalanceCurrencyMismatch).
   */
  async recordOnce(
    row: Insertable<TransactionsTable>,
    balance?: { userId: string; deltaMinor: number; currency: string; at: string },
  ): Promise<TransactionRow | undefined> {
    return this.database.transaction(async (trx) => {
      const stored = await trx
        .insertInto('transactions')
        .values(row)
        .onConflict((oc) => oc.columns(['driver', 'reference']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (stored && balance) await moveBalance(trx, balance);
      return stored;
    });
  }

  /**
   * A charge recorded as failed that its provider then reports paid (Stripe retries an invoice under
   * its one id; a top-up's capture reported denied, then completed): completed now, as `paid` says
   * (a top-up's row becomes its credit, and `balance` moves with it), or nothing when no such failed
   * charge is stored.
   */
  completeFailedCharge(
    driver: TransactionRow['driver'],
    reference: string,
    paid: { amount_minor: number; currency: string; updated_at: string; type?: 'credit'; note?: string },
    balance?: { userId: string; deltaMinor: number; currency: string; at: string },
  ): Promise<TransactionRow | undefined> {
    return this.database.transaction(async (trx) => {
      const completed = await trx
        .updateTable('transactions')
        .set({ status: 'completed', ...paid })
        .where('driver', '=', driver)
        .where('reference', '=', reference)
        .where('type', '=', 'charge')
        .where('status', '=', 'failed')
        .returningAll()
        .executeTakeFirst();
      if (completed && balance) await moveBalance(trx, balance);
      return completed;
    });
  }

  find(id: string): Promise<TransactionRow | undefined> {
    return this.database.db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async page(
    filter: TransactionFilter,
    page: number,
    perPage: number,
  ): Promise<{ rows: TransactionRow[]; total: number }> {
    const pattern = filter.search ? containsPattern(filter.search.toLowerCase()) : null;
    const base = this.database.db
      .selectFrom('transactions')
      .$if(filter.userId !== undefined, (qb) => qb.where('user_id', '=', filter.userId!))
      .$if(filter.type !== undefined, (qb) => qb.where('type', '=', filter.type!))
      .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
      .$if(filter.driver !== undefined, (qb) =>
        qb.where('driver', '=', filter.driver as TransactionRow['driver']),
      )
      .$if(filter.since !== undefined, (qb) => qb.where('created_at', '>=', filter.since!))
      .$if(pattern !== null, (qb) =>
        qb.where(
          sql<boolean>`(lower(user_name) like ${pattern} escape '\\' or user_email like ${pattern} escape '\\' or lower(reference) like ${pattern} escape '\\' or lower(note) like ${pattern} escape '\\')`,
        ),
      );
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Completed charges since `since`, per currency, with their month (`YYYY-MM`), for revenue. */
  async chargesSince(
    since: string,
  ): Promise<{ currency: string; month: string; created_at: string; amount_minor: number }[]> {
    const rows = await this.database.db
      .selectFrom('transactions')
      .select(['currency', 'created_at', 'amount_minor'])
      .where('type', '=', 'charge')
      .where('status', 'in', ['completed', 'successful'])
      .where('created_at', '>=', since)
      .execute();
    return rows.map((row) => {
      const createdAt = new Date(row.created_at).toISOString();
      return {
        currency: row.currency,
        month: createdAt.slice(0, 7),
        created_at: createdAt,
        amount_minor: Number(row.amount_minor),
      };
    });
  }

  async balance(userId: string): Promise<{ amount_minor: number; currency: string } | undefined> {
    const row = await this.database.db
      .selectFrom('balances')
      .select(['amount_minor', 'currency'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { amount_minor: Number(row.amount_minor), currency: row.currency };
  }

  /**
   * Takes `amountMinor` from the balance only when it holds that much, and records the charge with
   * it; one conditional update, so two settlements at once can never both spend the same money.
   * Answers the charge, or undefined when the balance was short (nothing changed).
   */
  async chargeBalance(row: Insertable<TransactionsTable>): Promise<TransactionRow | undefined> {
    return this.database.transaction(async (trx) => {
      const taken = await trx
        .updateTable('balances')
        .set((eb) => ({
          amount_minor: eb('amount_minor', '-', row.amount_minor),
          updated_at: row.created_at,
        }))
        .where('user_id', '=', row.user_id!)
        .where('currency', '=', row.currency)
        .where('amount_minor', '>=', row.amount_minor)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return undefined;
      return trx.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
    });
  }

  async updateStatus(id: string, status: TransactionStatus, at: string): Promise<void> {
    await this.database.db
      .updateTable('transactions')
      .set({ status, updated_at: at })
      .where('id', '=', id)
      .execute();
  }
}

/**
 * Adds to (or creates) the user's balance inside the caller's database transaction; a balance in
 * another currency is not touched, and the error rolls the caller's transaction back.
 */
async function moveBalance(
  trx: Kysely<DB>,
  { userId, deltaMinor, currency, at }: { userId: string; deltaMinor: number; currency: string; at: string },
): Promise<void> {
  const moved = await trx
    .insertInto('balances')
    .values({ user_id: userId, amount_minor: deltaMinor, currency, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet((eb) => ({
          amount_minor: eb('balances.amount_minor', '+', deltaMinor),
          updated_at: at,
        }))
        .where('balances.currency', '=', currency),
    )
    .executeTakeFirst();
  if (Number(moved.numInsertedOrUpdatedRows ?? 0) !== 1) throw new BalanceCurrencyMismatch();
}
