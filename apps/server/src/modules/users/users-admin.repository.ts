import type { AdminUsersQuery, Role } from '@atelier/contracts';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database';
import type { DB, UserRow } from '../../db/schema';
import { containsPattern } from '../../lib/like-pattern';
import type { ItemReader } from '../files/files.ports';
import type { AccountDirectory, ListedUser } from './users.ports';

/** The sorts by the account's own columns; by `used` the files module orders the page. */
const SORTS = {
  created_at: 'users.created_at',
  name: 'users.name',
  email: 'users.email',
  role: 'users.role',
} as const;

/** The administration's reads and writes of accounts, kept by the users module with the table. */
export class UsersAdminRepository implements AccountDirectory {
  constructor(
    private readonly database: Database,
    /** Bytes used are the files module's (storage_usage), read through its port. */
    private readonly items: Pick<ItemReader, 'usedBytesOf' | 'ownersByUsage'>,
  ) {}

  private get db() {
    return this.database.db;
  }

  async list(query: AdminUsersQuery): Promise<{ rows: ListedUser[]; total: number }> {
    const pattern = query.search ? containsPattern(query.search.toLowerCase()) : null;
    const filtered = this.db
      .selectFrom('users')
      .$if(pattern !== null, (qb) =>
        qb.where(
          sql<boolean>`(lower(users.name) like ${pattern} escape '\\' or users.email like ${pattern} escape '\\')`,
        ),
      )
      .$if(query.role !== undefined, (qb) => qb.where('users.role', '=', query.role!));
    const page = { limit: query.per_page, offset: (query.page - 1) * query.per_page };
    const [rows, count] = await Promise.all([
      query.sort === 'used'
        ? this.byUsage(filtered.select('users.id'), query.direction, page)
        : this.byColumn(filtered, SORTS[query.sort], query.direction, page),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** A page of the accounts the query names, in the order of one of their columns, with their bytes used. */
  private async byColumn(
    accounts: SelectQueryBuilder<DB, 'users', object>,
    column: (typeof SORTS)[keyof typeof SORTS],
    direction: 'asc' | 'desc',
    page: { limit: number; offset: number },
  ): Promise<ListedUser[]> {
    const rows = await accounts
      .selectAll('users')
      .orderBy(column, direction)
      .orderBy('users.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const used = await this.items.usedBytesOf(rows.map((row) => row.id));
    return rows.map((row) => ({ ...row, used: used.get(row.id) ?? 0 }));
  }

  /** A page of the accounts the query names, in the order of their bytes used. */
  private async byUsage(
    ids: SelectQueryBuilder<DB, 'users', { id: string }>,
    direction: 'asc' | 'desc',
    page: { limit: number; offset: number },
  ): Promise<ListedUser[]> {
    const order = await this.items.ownersByUsage(ids, direction, page);
    if (order.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where(
        'id',
        'in',
        order.map((owner) => owner.id),
      )
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return order.flatMap((owner) => {
      const row = byId.get(owner.id);
      return row ? [{ ...row, used: owner.used }] : [];
    });
  }

  async countUsers(since: string): Promise<{ total: number; admins: number; recent: number }> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
        eb.fn.sum<number>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as('recent'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), admins: Number(row.admins ?? 0), recent: Number(row.recent ?? 0) };
  }

  newest(limit: number): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
  }

  /** Creation dates of the accounts made since `since`, for the monthly counts. */
  async createdSince(since: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('created_at')
      .where('created_at', '>=', since)
      .execute();
    return rows.map((row) => row.created_at);
  }

  /**
   * Changes the role unless that would leave no administrator (see `anotherAdminRemains`).
   */
  async setRoleKeepingAnAdmin(id: string, role: Role, now: string): Promise<boolean> {
    return this.database.transaction(async (trx) => {
      if (role !== 'admin' && !(await this.anotherAdminRemains(id))) return false;
      await trx.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
      return true;
    });
  }

  /**
   * Whether an administrator other than this account would remain, inside the caller's unit of work.
   * Every admin row is written first, so two admins demoting or deleting each other at once take
   * turns (row locks on PostgreSQL, the one writer on SQLite) and the second counts after the first.
   */
  async anotherAdminRemains(id: string): Promise<boolean> {
    await this.db.updateTable('users').set({ role: 'admin' }).where('role', '=', 'admin').execute();
    const { admins } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('admins'))
      .where('role', '=', 'admin')
      .where('id', '!=', id)
      .executeTakeFirstOrThrow();
    return Number(admins) > 0;
  }

  /**
   * Deletes the account: what is left of it goes with the user (foreign keys cascade: shares, upload
   * requests, team folders and memberships, sessions, notifications).
   */
  async deleteUser(userId: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', userId).execute();
  }
}
