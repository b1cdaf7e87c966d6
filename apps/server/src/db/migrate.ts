import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import type { Connection } from './database';
import { migrations } from './migrations/index';

/** Brings the schema up to date; runs at every start and after the wizard's database step. */
export async function migrateToLatest(connection: Connection): Promise<string[]> {
  const { dialect } = connection;
  const migrator = new Migrator({
    db: connection.db as unknown as Kysely<unknown>,
    // Migrations are independent of each other: one that lands after a higher-numbered one (work
    // merged in another order) still runs on a database that already has the later one.
    allowUnorderedMigrations: true,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(
          migrations.map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, dialect) }]),
        ),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
