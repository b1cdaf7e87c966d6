import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const requirePackage = createRequire(import.meta.url);

/** better-sqlite3 13 is one prebuilt binary on Node-API 10, which Node 22.14+ and 24 provide. */
const NODE_API_OF_CURRENT_DRIVER = 10;

/**
 * The better-sqlite3 build this Node can run. 13.x is the driver: the 12.x addon aborts Node 24 when
 * a garbage-collected statement unregisters its cleanup hook. Node 20 (Node-API 9) cannot load 13.x
 * and gets the 12.x build, an optional dependency compiled at install; drop it with Node 20.
 */
export function sqliteDriverPackage(nodeApiVersion = Number(process.versions.napi)): string {
  return nodeApiVersion >= NODE_API_OF_CURRENT_DRIVER ? 'better-sqlite3' : 'better-sqlite3-node20';
}

/** Required on first use, because loading the build made for another Node crashes the process. */
export function loadSqliteDriver(): typeof BetterSqlite3 {
  const packageName = sqliteDriverPackage();
  try {
    return requirePackage(packageName) as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(
      `SQLite cannot load ${packageName} on Node ${process.versions.node}. On Node 20 it is compiled ` +
        'at install (python3, make and g++, then npm ci); Node 22 and 24 need no compiler.',
      { cause: error },
    );
  }
}

/** Statements kept per connection: the app's queries are a few hundred texts. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The connection as Kysely's SQLite dialect uses it, preparing each SQL text once: better-sqlite3
 * compiles a statement on every `prepare`, which was a tenth of the CPU of a cached folder page. A
 * statement still being iterated (a streamed query) is busy, so its text then gets a fresh one.
 */
export function withStatementCache(
  database: BetterSqlite3.Database,
  size = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        // Map order is the recency order: the least recently used text is dropped first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (!cached) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
