import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openConnection } from '../../src/db/database';
import { prepareConnection } from '../../src/db/prepare';
import { createPostgresDatabase, databaseKinds, requiredTestDatabaseUrl } from './databases';

/**
 * Vitest's global setup: migrates one database of each kind once per run, which every test app then
 * copies (createMigratedDatabase) instead of running all the migrations again; removed at the end.
 */
export default async function migrateTemplates(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-template-'));
  const sqlite = path.join(dir, 'template.sqlite');
  await prepare(`sqlite:${sqlite}`);
  const postgres = databaseKinds.includes('postgres')
    ? await createPostgresDatabase(requiredTestDatabaseUrl())
    : undefined;
  if (postgres) await prepare(postgres.url);
  project.provide('migratedTemplates', {
    sqlite,
    ...(postgres ? { postgres: new URL(postgres.url).pathname.slice(1) } : {}),
  });
  return async () => {
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Migrates and seeds the database at `url`, then closes it (a template may have no connection open). */
async function prepare(url: string): Promise<void> {
  const connection = openConnection(url);
  try {
    await prepareConnection(connection);
  } finally {
    await connection.db.destroy();
  }
}
