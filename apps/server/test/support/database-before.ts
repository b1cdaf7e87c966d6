import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { openConnection, type Connection } from '../../src/db/database';
import { migrations } from '../../src/db/migrations/index';
import { createScratchDatabase, type DatabaseKind, type ScratchDatabase } from './databases';

/** A scratch database migrated up to, not including, one migration: the state that migration meets. */
export interface DatabaseBefore {
  connection: Connection;
  db: Kysely<unknown>;
}

/**
 * Registers the suite's hooks: before its tests, a scratch database of `kind` with every migration
 * before `migration` recorded where the app's migrator looks for them (so `migrateToLatest` then runs
 * that one and those after); after them, the database dropped. Read the fields inside tests.
 */
export function databaseBefore(kind: DatabaseKind, migration: string): DatabaseBefore {
  const state = {} as DatabaseBefore;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(kind);
    const connection = openConnection(scratch.url);
    state.connection = connection;
    state.db = connection.db as unknown as Kysely<unknown>;
    const before = migrations.slice(
      0,
      migrations.findIndex(([name]) => name === migration),
    );
    const { error } = await new Migrator({
      db: state.db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            before.map(([name, m]) => [name, { up: (d: Kysely<unknown>) => m.up(d, connection.dialect) }]),
          ),
      },
    }).migrateToLatest();
    if (error) throw error;
  });
  afterAll(async () => {
    await state.connection?.db.destroy();
    await scratch?.drop();
  });
  return state;
}
