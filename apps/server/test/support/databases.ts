import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export type DatabaseKind = 'sqlite' | 'postgres';

// Provided by migrated-templates.ts; declared here, beside the reader, so that every program that
// reads it (the benches import this file too) knows its type.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Per kind, the migrated database test apps start from: a SQLite file, a PostgreSQL database's name. */
    migratedTemplates: Partial<Record<DatabaseKind, string>>;
  }
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the given kind, private to the caller. */
export async function createScratchDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-db-'));
    return {
      url: `sqlite:${path.join(dir, 'test.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  return createPostgresDatabase(requiredTestDatabaseUrl());
}

/**
 * A database of the given kind with every migration applied and the default pages in, private to
 * the caller: a copy of the run's template (made once per run by migrated-templates.ts), which is
 * much faster than migrating a fresh one, on PostgreSQL above all.
 */
export async function createMigratedDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const template = inject('migratedTemplates')[kind];
  if (!template) throw new Error(`no migrated ${kind} template: the test run has no global setup for it`);
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-db-'));
    const file = path.join(dir, 'test.sqlite');
    copyFileSync(template, file);
    return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return createPostgresDatabase(requiredTestDatabaseUrl(), template);
}

export function requiredTestDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

/**
 * Creates `atelier_test_<random>` on the server of `adminUrl`, empty or a copy of the database named
 * `template`, and returns its URL.
 */
export async function createPostgresDatabase(adminUrl: string, template?: string): Promise<ScratchDatabase> {
  const name = `atelier_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
