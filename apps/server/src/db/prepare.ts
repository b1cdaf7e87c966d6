import { Database, openConnection, type Connection } from './database';
import { migrateToLatest } from './migrate';
import { seedPages } from './seed';

/** Migrates and seeds a connection; used at start, by the setup wizard and by tests. */
export async function prepareConnection(connection: Connection): Promise<void> {
  await migrateToLatest(connection);
  await seedPages(new Database(connection));
}

export async function openPreparedDatabase(url: string): Promise<Database> {
  const connection = openConnection(url);
  try {
    await prepareConnection(connection);
  } catch (error) {
    await connection.db.destroy();
    throw error;
  }
  return new Database(connection);
}
