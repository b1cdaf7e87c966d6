import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import { writeSeededFile } from '../support/seeded-noise';
import type { StorageKind } from '../files/files-harness';
import { startDavServer, type DavAccount, type DavTestServer } from '../webdav/webdav-harness';
import { countRequests, syncOnce, type RequestCounter } from './sync-harness';

const MiB = 1024 * 1024;
/**
 * The two shapes: embedded (SQLite, local disk) with the issue's size, past any single request a
 * proxy lets through, and scaled out (PostgreSQL when configured, S3) with a file still six times the
 * client's first chunk (10 MB), so it is sent in chunks too, into S3's multipart path.
 */
const shapes: [(typeof databaseKinds)[number], StorageKind, number][] = [
  ['sqlite', 'local', 300 * MiB],
  [databaseKinds.at(-1)!, 's3', 64 * MiB],
];

for (const [database, storage, bigFileBytes] of shapes) {
  describe(`nextcloudcmd's chunked uploads [${database}, ${storage}]`, () => {
    let server: DavTestServer;
    let account: DavAccount;
    let work: string;
    /** What the server received: what the client really sent. */
    let requests: RequestCounter;

    beforeAll(async () => {
      server = await startDavServer(database, storage);
      account = await server.account();
      requests = countRequests(server);
      work = await mkdtemp(join(tmpdir(), 'atelier-nextcloudcmd-'));
    });
    afterAll(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });

    const sync = (folder: string) => syncOnce('nextcloudcmd', server, account, folder);

    it('sends it up in chunks and brings it back down with the same SHA-256', async () => {
      const up = join(work, 'up');
      await mkdir(up);
      await writeSeededFile(join(up, 'scan.bin'), 26, bigFileBytes);
      await sync(up);

      // The client opened a transfer, sent more than one chunk into it and assembled it with MOVE;
      // it never sent the file in one PUT.
      const uploads = '/remote.php/dav/uploads/';
      expect(requests.count('MKCOL', uploads)).toBe(1);
      expect(requests.count('PUT', uploads)).toBeGreaterThan(1);
      expect(requests.count('MOVE', '/.file')).toBe(1);
      expect(requests.count('PUT', '/scan.bin')).toBe(0);

      const down = join(work, 'down');
      await mkdir(down);
      await sync(down);
      expect((await readdir(down)).filter((name) => !name.startsWith('.'))).toEqual(['scan.bin']);
      expect(await sha256(join(down, 'scan.bin'))).toBe(await sha256(join(up, 'scan.bin')));
      // Nothing of the transfer stays held: the file alone counts.
      const usage = await server.deps.database.db
        .selectFrom('storage_usage')
        .select(['used_bytes', 'reserved_bytes'])
        .where('user_id', '=', account.user.id)
        .executeTakeFirstOrThrow();
      expect([Number(usage.used_bytes), Number(usage.reserved_bytes)]).toEqual([bigFileBytes, 0]);
    }, 900_000);

    // Once is enough: resuming is the client's listing and the server's chunks, whatever the store.
    it.skipIf(storage !== 'local')(
      'resumes a transfer cut off mid-way: the client lists the chunks the server holds and sends the rest',
      async () => {
        const folder = join(work, 'resumed');
        await mkdir(folder);
        await writeSeededFile(join(folder, 'render.bin'), 27, 40 * MiB);
        // Slowed to 4 MB/s, the client is stopped once the server holds a chunk, as a laptop closed mid-sync.
        const slowed = spawn(
          'nextcloudcmd',
          [
            '--non-interactive',
            '--uplimit',
            '4000',
            '-u',
            account.email,
            '-p',
            account.password,
            folder,
            server.origin,
          ],
          { stdio: 'ignore' },
        );
        const exited = new Promise((resolve) => slowed.once('exit', resolve));
        for (;;) {
          const held = await server.deps.database.db
            .selectFrom('dav_upload_chunks')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow();
          if (Number(held.count) > 0 || slowed.exitCode !== null) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        slowed.kill('SIGKILL');
        await exited;
        requests.reset();
        // What the server holds once the client is gone: the chunks it received whole (the one on its
        // way when the client stopped is not among them).
        const held = await server.deps.database.db
          .selectFrom('dav_upload_chunks')
          .innerJoin('dav_uploads', 'dav_uploads.id', 'dav_upload_chunks.upload_id')
          .select(['dav_uploads.name as transfer', 'dav_upload_chunks.name as chunk'])
          .execute();
        expect(held.length).toBeGreaterThan(0);
        const transfer = `/remote.php/dav/uploads/${account.user.id}/${held[0]!.transfer}`;

        await sync(folder);
        // The same transfer is listed and continued: no chunk it held is sent again.
        expect(requests.count('PROPFIND', transfer)).toBeGreaterThan(0);
        expect(requests.count('PUT', `${transfer}/`)).toBeGreaterThan(0);
        for (const { chunk } of held) expect(requests.count('PUT', `${transfer}/${chunk}`)).toBe(0);
        expect(requests.count('MOVE', `${transfer}/.file`)).toBe(1);

        const down = join(work, 'resumed-down');
        await mkdir(down);
        await sync(down);
        expect(await sha256(join(down, 'render.bin'))).toBe(await sha256(join(folder, 'render.bin')));
      },
      900_000,
    );
  });
}

/** A file's SHA-256, read as a stream. */
async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
