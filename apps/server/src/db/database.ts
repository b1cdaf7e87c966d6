import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { loadSqliteDriver } from './sqlite-driver';

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
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: 'sqlite',
    label: `sqlite:${file}`,
  };
}

/** Fails with the driver's reason when the database cannot be reached. */
export async function pingConnection(connection: Connection): Promise<void> {
  await connection.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
}

/**
 * The live database handle. Repositories read `.db` on every query, so the setup wizard can switch
 * the instance from SQLite to PostgreSQL without rebuilding the app.
 */
export class Database {
  constructor(private connection: Connection) {}

  get db(): Kysely<DB> {
    return this.connection.db;
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
