import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteDriverPackage } from '../src/db/sqlite-driver';

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
});
