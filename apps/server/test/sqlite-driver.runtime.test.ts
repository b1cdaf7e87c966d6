import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqliteDriver, sqliteDriverPackage, withStatementCache } from '../src/db/sqlite-driver';

const COLLECT_STATEMENTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/collect-statements.ts',
);

describe('SQLite driver', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-sqlite-driver-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is better-sqlite3 13 where Node-API 10 exists, and its 12.x build on Node 20', () => {
    expect(sqliteDriverPackage(10)).toBe('better-sqlite3');
    expect(sqliteDriverPackage(9)).toBe('better-sqlite3-node20');
  });

  // The 12.x addon aborted Node 24 here ("Assertion failed: (env) != nullptr"), killing test
  // workers and the SERVICES=worker process.
  it('lets garbage collection free finished statements on this Node without aborting it', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      COLLECT_STATEMENTS,
      `sqlite:${path.join(dir, 'collect.sqlite')}`,
    ]);
    expect({ stdout, stderr }).toEqual({ stdout: 'collected after 999999 allocations\n', stderr: '' });
  });

  describe('statement cache', () => {
    function countingDatabase() {
      const SQLite = loadSqliteDriver();
      const database = new SQLite(':memory:');
      const prepared: string[] = [];
      const prepare = database.prepare.bind(database);
      database.prepare = ((source: string) => {
        prepared.push(source);
        return prepare(source);
      }) as typeof database.prepare;
      return { database, prepared };
    }

    it('prepares each text once and drops the least recently used text beyond its size', () => {
      const { database, prepared } = countingDatabase();
      const cache = withStatementCache(database, 2);
      for (const text of ['select 1', 'select 2', 'select 1', 'select 3', 'select 1', 'select 2'])
        cache.prepare(text);
      expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
      expect(cache.prepare('select 1').all([])).toEqual([{ 1: 1 }]);
      cache.close();
      expect(database.open).toBe(false);
    });

    it('gives a fresh statement for a text whose statement is still being iterated', () => {
      const { database, prepared } = countingDatabase();
      const cache = withStatementCache(database);
      const text = 'select value from json_each(?)';
      const rows: unknown[] = [];
      for (const row of cache.prepare(text).iterate(['[1, 2]']))
        rows.push(row, cache.prepare(text).all(['[3]']));
      expect(rows).toEqual([{ value: 1 }, [{ value: 3 }], { value: 2 }, [{ value: 3 }]]);
      expect(prepared).toEqual([text, text, text]);
      cache.close();
    });
  });
});
