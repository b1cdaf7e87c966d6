import { sql } from 'kysely';
import type { Database } from './database';

/** The database server's version as it reports it (`16.4`, `3.46.1`). */
export async function databaseVersion(database: Database): Promise<string> {
  const query =
    database.dialect === 'postgres'
      ? sql<{ version: string }>`show server_version`
      : sql<{ version: string }>`select sqlite_version() as version`;
  const { rows } = await query.execute(database.db);
  const row = rows[0] as Record<string, string> | undefined;
  return row?.version ?? row?.server_version ?? '';
}
