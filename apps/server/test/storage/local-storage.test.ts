import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/storage/local.storage';

describe('local storage', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the temporary files of writes whose process is gone when it opens, and no others', async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'atelier-local-'));
    mkdirSync(path.join(root, 'tmp'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const alive = process.ppid;
    writeFileSync(path.join(root, 'tmp', `${gone}-abandoned`), 'half');
    writeFileSync(path.join(root, 'tmp', `${process.pid}-earlier-life`), 'half');
    writeFileSync(path.join(root, 'tmp', `${alive}-in-progress`), 'half');
    writeFileSync(path.join(root, 'tmp', 'unnamed'), 'half');
    const storage = new LocalStorage(root);
    await storage.check();
    expect(readdirSync(path.join(root, 'tmp')).sort()).toEqual([`${alive}-in-progress`, 'unnamed']);
    await storage.put('a'.repeat(32), Buffer.from('bytes'));
    expect(readdirSync(path.join(root, 'tmp')).sort()).toEqual([`${alive}-in-progress`, 'unnamed']);
  });
});
