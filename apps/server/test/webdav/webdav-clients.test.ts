import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import type { StorageKind } from '../files/files-harness';
import { startDavServer, type DavAccount, type DavTestServer } from './webdav-harness';

const run = promisify(execFile);
/** Where the litmus report is kept as an artifact (ignored by git). */
const REPORT_DIR = resolve(import.meta.dirname, '../../../../test-output/webdav');
const LITMUS_SUITES = ['basic', 'copymove', 'props', 'locks'];

describe('litmus, the WebDAV compliance suite', () => {
  let server: DavTestServer;
  let account: DavAccount;

  beforeAll(async () => {
    server = await startDavServer('sqlite', 'local');
    account = await server.account();
  });
  afterAll(() => server.close());

  // As long as litmus itself may run (below): on a loaded CI machine it took past the default 30 s.
  it('passes basic, copymove, props and locks without a failure', { timeout: 150_000 }, async () => {
    await mkdir(REPORT_DIR, { recursive: true });
    // litmus writes its debug.log and child.log into its working folder: keep them with the report.
    const { stdout } = await run('litmus', [`${server.origin}/dav/files/`, account.email, account.password], {
      env: { ...process.env, TESTS: LITMUS_SUITES.join(' ') },
      cwd: REPORT_DIR,
      timeout: 120_000,
    }).catch((error: { stdout?: string; message: string }) => ({ stdout: error.stdout ?? error.message }));
    await writeFile(join(REPORT_DIR, 'litmus.txt'), stdout);
    for (const suite of LITMUS_SUITES)
      expect(stdout, stdout).toMatch(
        new RegExp(`summary for \`${suite}': of \\d+ tests run: \\d+ passed, 0 failed`),
      );
    expect(stdout).not.toMatch(/FAIL|WARNING/);
  });
});

/**
 * rclone's plain WebDAV (`vendor=other`, at /dav/files/) on both shapes: embedded (SQLite, local disk)
 * and scaled out (PostgreSQL when configured, S3), a tree of 200 files in 5 × 3 folders each. The
 * 1,000-file scale is rclone's nextcloud vendor's and nextcloudcmd's in the sync clients' suite
 * (test/sync/sync-clients.test.ts), through the same WebDAV handler (/dav/files/ and
 * /remote.php/dav/files/{user}/ are one): sent once, not twice. About 14 files a folder,
 * so rclone's 8 transfers still make each folder at once (MKCOLs of one name racing, which lost files
 * on PostgreSQL + S3 before lib/keyed-queue.ts; webdav.test.ts races them on every shape).
 */
const shapes: [(typeof databaseKinds)[number], StorageKind][] = [
  ['sqlite', 'local'],
  [databaseKinds.at(-1)!, 's3'],
];
const tree = { files: 200, dirs: 5, subs: 3 };

for (const [database, storage] of shapes) {
  describe(`rclone [${database}, ${storage}]`, () => {
    let server: DavTestServer;
    let account: DavAccount;
    let work: string;

    beforeAll(async () => {
      server = await startDavServer(database, storage);
      account = await server.account();
      work = await mkdtemp(join(tmpdir(), 'atelier-rclone-'));
    });
    afterAll(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });

    it(`syncs a tree of ${tree.files} files up and back down with the same bytes`, async () => {
      const up = join(work, 'up');
      for (let i = 0; i < tree.files; i++) {
        const folder = join(up, `dir-${i % tree.dirs}`, `sub ${i % tree.subs}`);
        await mkdir(folder, { recursive: true });
        await writeFile(
          join(folder, `file-${i}.bin`),
          randomBytes(i % 50 === 0 ? 0 : 200 + ((i * 37) % 4000)),
        );
      }
      const { stdout: obscured } = await run('rclone', ['obscure', account.password]);
      const remote = `:webdav,url='${server.origin}/dav/files/',vendor=other,user='${account.email}',pass='${obscured.trim()}':tree`;
      const rclone = (from: string, to: string) =>
        run(
          'rclone',
          [
            'sync',
            from,
            to,
            '--transfers',
            '8',
            '--checkers',
            '8',
            '--retries',
            '1',
            '--config',
            '/dev/null',
          ],
          {
            // A guard against a hang, not a limit on a slow machine.
            timeout: 420_000,
          },
        );
      await rclone(up, remote);
      const down = join(work, 'down');
      await rclone(remote, down);
      const [sent, received] = await Promise.all([digests(up), digests(down)]);
      expect(sent.size).toBe(tree.files);
      expect(received).toEqual(sent);
    }, 900_000);
  });
}

/** Each file's path below the folder and the SHA-256 of its bytes. */
async function digests(root: string): Promise<Map<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return new Map(
    await Promise.all(
      files.map(
        async (file) =>
          [
            relative(root, file),
            createHash('sha256')
              .update(await readFile(file))
              .digest('hex'),
          ] as const,
      ),
    ),
  );
}
