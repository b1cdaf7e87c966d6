import path from 'node:path';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Env } from '../env';

/** The database the setup wizard chose; DATABASE_URL, when set, takes precedence over it. */
const CHOICE_FILE = 'database.json';

export interface DatabaseChoice {
  url: string;
  /** True when DATABASE_URL fixes the database and the wizard may not change it. */
  pinned: boolean;
}

export function defaultSqliteUrl(dataDir: string): string {
  return `sqlite:${path.join(dataDir, 'atelier.sqlite')}`;
}

export function resolveDatabaseUrl(env: Pick<Env, 'DATABASE_URL' | 'dataDir'>): DatabaseChoice {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, pinned: true };
  const file = path.join(env.dataDir, CHOICE_FILE);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown };
    if (typeof saved.url === 'string' && saved.url) return { url: saved.url, pinned: false };
  }
  return { url: defaultSqliteUrl(env.dataDir), pinned: false };
}

/**
 * Saved readable by the owner only: a PostgreSQL URL carries its password. SQLite in DATA_DIR, the
 * default, is saved as no file at all, so it stays the one in DATA_DIR wherever the folder is moved or
 * restored (an absolute path would point at the old place).
 */
export function saveDatabaseUrl(dataDir: string, url: string): void {
  const file = path.join(dataDir, CHOICE_FILE);
  if (url === defaultSqliteUrl(dataDir)) return rmSync(file, { force: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ url }, null, 2)}\n`, { mode: 0o600 });
}
