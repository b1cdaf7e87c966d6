import { Database, openConnection, withoutPassword, type Connection } from './database';
import { migrateToLatest } from './migrate';
import { seedPages } from './seed';

/** Migrates and seeds a connection; used at start, by the setup wizard and by tests. */
export async function prepareConnection(connection: Connection): Promise<void> {
  await migrateToLatest(connection);
  await seedPages(new Database(connection));
}

/** Opens and prepares the database, or fails with one line naming it (password masked) and the reason. */
export async function openPreparedDatabase(url: string): Promise<Database> {
  const connection = openConnection(url);
  try {
    await prepareConnection(connection);
  } catch (error) {
    await connection.db.destroy();
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new DatabaseUnavailableError(`Cannot open the database ${withoutPassword(url)}: ${reason}`, {
      cause: error,
    });
  }
  return new Database(connection);
}

export class DatabaseUnavailableError extends Error {}
