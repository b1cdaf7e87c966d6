import path from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { loadSqliteDriver, withStatementCache } from './sqlite-driver';

export type Dialect = 'sqlite' | 'postgres';

export interface Connection {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The URL it was opened from, without the password (for logs and status checks). */
  label: string;
}

// PostgreSQL hands timestamps back as Date and int8 as string; the app works with ISO strings and
// numbers on both dialects, so parse them the same way SQLite stores them.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (v) => new Date(`${v}Z`).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL with its password masked, for logs and messages. */
export function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/** Opens SQLite (`sqlite:<file>`, `file:<file>`) or PostgreSQL (`postgres://…`). */
export function openConnection(url: string): Connection {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
    // An idle client can lose its connection (server restart, failover); the pool replaces it on the
    // next checkout, so the error must not crash the process as an unhandled 'error' event.
    pool.on('error', () => {});
    const label = withoutPassword(url);
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres', label };
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const SQLite = loadSqliteDriver();
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the one writer; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
    label: `sqlite:${file}`,
  };
}

/** Fails with the driver's reason when the database cannot be reached. */
export async function pingConnection(connection: Connection): Promise<void> {
  await connection.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
}

/** What a service needs to make its writes, across modules, and the jobs it enqueues one unit of work. */
export type UnitOfWork = Pick<Database, 'transaction' | 'afterCommit'>;

/** One open unit of work: its transaction, and what must happen only once it has committed. */
interface OpenUnit {
  trx: Kysely<DB>;
  afterCommit: Array<() => unknown>;
  /** Set when the transaction ended; a callback started inside it and run later must not use it. */
  ended: boolean;
  savepoints: number;
}

/**
 * The live database handle. Repositories read `.db` on every query, so the setup wizard can switch
 * the instance from SQLite to PostgreSQL without rebuilding the app, and so every repository's
 * queries inside `transaction(...)` join that one transaction, whichever module the repository
 * belongs to: a unit of work spans modules without any of them handing a transaction around.
 */
export class Database {
  private readonly units = new AsyncLocalStorage<OpenUnit>();

  /** Where a failing after-commit task is reported (the services set a log line); it cannot undo what committed. */
  onAfterCommitError: (error: unknown) => void = () => {};

  constructor(private connection: Connection) {}

  get db(): Kysely<DB> {
    const unit = this.units.getStore();
    return unit && !unit.ended ? unit.trx : this.connection.db;
  }

  /** True inside a unit of work, where writes (and jobs the queue stores) commit or roll back together. */
  get inUnitOfWork(): boolean {
    const unit = this.units.getStore();
    return !!unit && !unit.ended;
  }

  /**
   * Runs `work` as one unit of work: every query of every repository inside it, on this database,
   * commits together or not at all. Called inside another unit it becomes a savepoint of that one,
   * so a nested failure that the caller catches undoes only the nested writes.
   */
  async transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    const outer = this.units.getStore();
    if (outer && !outer.ended) return this.savepoint(outer, work);
    const unit: OpenUnit = { trx: this.connection.db, afterCommit: [], ended: false, savepoints: 0 };
    let result: T;
    try {
      result = await this.connection.db.transaction().execute((trx) => {
        unit.trx = trx;
        return this.units.run(unit, () => work(trx));
      });
    } finally {
      unit.ended = true;
    }
    for (const task of unit.afterCommit) {
      try {
        await task();
      } catch (error) {
        this.onAfterCommitError(error);
      }
    }
    return result;
  }

  /**
   * Runs `task` once the current unit of work has committed (never if it rolls back), or at once
   * outside one: announcing a change, waking a worker or forwarding a job must not happen for writes
   * that may still be undone.
   */
  async afterCommit(task: () => unknown): Promise<void> {
    const unit = this.units.getStore();
    if (unit && !unit.ended) unit.afterCommit.push(task);
    else await task();
  }

  private async savepoint<T>(unit: OpenUnit, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    const name = sql.raw(`unit_${++unit.savepoints}`);
    const hooks = unit.afterCommit.length;
    await sql`savepoint ${name}`.execute(unit.trx);
    try {
      const result = await work(unit.trx);
      await sql`release savepoint ${name}`.execute(unit.trx);
      return result;
    } catch (error) {
      await sql`rollback to savepoint ${name}`.execute(unit.trx);
      // What the undone writes meant to announce is undone with them.
      unit.afterCommit.length = hooks;
      throw error;
    }
  }

  get dialect(): Dialect {
    return this.connection.dialect;
  }

  get label(): string {
    return this.connection.label;
  }

  async replace(next: Connection): Promise<void> {
    const previous = this.connection;
    this.connection = next;
    await previous.db.destroy();
  }

  async destroy(): Promise<void> {
    await this.connection.db.destroy();
  }
}
