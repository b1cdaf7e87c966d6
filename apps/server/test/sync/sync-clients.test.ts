import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAgent } from '../support/factories';
import { databaseKinds } from '../support/databases';
import type { TestAgent } from '../support/agent';
import type { StorageKind } from '../files/files-harness';
import {
  addTeamMember,
  basic,
  startDavServer,
  type DavAccount,
  type DavTestServer,
} from '../webdav/webdav-harness';
import {
  countRequests,
  digests,
  engineNotes,
  modificationTimes,
  run,
  syncOnce,
  writeTree,
  type RequestCounter,
} from './sync-harness';

/**
 * The desktop clients' sync engines against a listening server, unchanged: Nextcloud's nextcloudcmd
 * and ownCloud's owncloudcmd, and rclone's nextcloud vendor. Embedded (SQLite, local disk) with
 * trees of 1,000 files, and scaled out (PostgreSQL when configured, S3) with the same steps on trees
 * of 200: the scale is the engines' and the server's, the same on either shape, and is shown once.
 */
const shapes: [(typeof databaseKinds)[number], StorageKind, number][] = [
  ['sqlite', 'local', 1000],
  [databaseKinds.at(-1)!, 's3', 200],
];
/** What moves bytes or names: none of them in a run that has nothing to sync. */
const TRANSFERS = ['PUT', 'POST', 'GET', 'MKCOL', 'MOVE', 'COPY', 'DELETE'];
/** A guard against a hang on a loaded machine, never a timing. */
const LONG = 1_200_000;

for (const [database, storage, files] of shapes) {
  describe(`sync clients [${database}, ${storage}]`, () => {
    let server: DavTestServer;
    let requests: RequestCounter;
    let owner: DavAccount;
    let web: TestAgent;
    let work: string;
    /** Two computers of the owner, each with its own synced folder. */
    let laptop: string;
    let desktop: string;
    /** Each request that moved bytes or names, as `METHOD path`: a failure says which files and how. */
    const transfers = () => requests.seen(TRANSFERS, '/remote.php/dav/');
    /**
     * Why a sync did what it should not: the requests refused so far, how many files were written
     * more than once (each such write leaves a version), and what the engines said of the files moved.
     */
    const why = async () => {
      const versions = await server.deps.database.db
        .selectFrom('file_versions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', owner.user.id)
        .executeTakeFirstOrThrow();
      return [
        ...requests.refused(),
        `files with an earlier version: ${Number(versions.count)}`,
        engineNotes(transfers()),
      ].join('\n');
    };
    const dav = (method: string, path: string, payload?: string, headers: Record<string, string> = {}) =>
      server.app.inject({
        method: method as 'GET',
        url: `/remote.php/dav/files/${owner.user.id}/${path}`,
        payload,
        headers: { authorization: basic(owner.email, owner.password), ...headers },
      });
    const idOf = async (path: string) => {
      const answer = await dav(
        'PROPFIND',
        path,
        '<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><oc:fileid/></d:prop></d:propfind>',
        { depth: '0' },
      );
      return /<oc:fileid>([^<]+)<\/oc:fileid>/.exec(answer.body)![1]!;
    };

    beforeAll(async () => {
      server = await startDavServer(database, storage);
      requests = countRequests(server);
      owner = await server.account();
      web = (await signedInAgent(server.app, owner.user)).agent;
      work = await mkdtemp(join(tmpdir(), 'atelier-sync-'));
      laptop = join(work, 'laptop');
      desktop = join(work, 'desktop');
      await Promise.all([mkdir(laptop), mkdir(desktop)]);
    });
    afterAll(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });

    it(
      `nextcloudcmd sends a tree of ${files} files in nested folders up, and another computer gets it the same`,
      async () => {
        await writeTree(laptop, files, 1, false);
        await syncOnce('nextcloudcmd', server, owner, laptop);
        const stored = await server.deps.database.db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', owner.user.id)
          .where('type', '=', 'file')
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        expect(Number(stored.count)).toBe(files);
        await syncOnce('nextcloudcmd', server, owner, desktop);
        const sent = await digests(laptop);
        expect(sent.size).toBe(files);
        expect(await digests(desktop)).toEqual(sent);
        // Each file keeps the time it was last changed on the laptop, not the time it reached the server.
        expect(await modificationTimes(desktop), requests.refused().join('\n')).toEqual(
          await modificationTimes(laptop),
        );
      },
      LONG,
    );

    it('transfers nothing on a second run with no change, and then reads no folder but the root', async () => {
      requests.reset();
      await syncOnce('nextcloudcmd', server, owner, laptop);
      await syncOnce('nextcloudcmd', server, owner, desktop);
      expect(transfers(), await why()).toEqual([]);
      // The laptop's engine recorded each folder's ETag when it made the folder, before the files
      // went in, so it listed them all once more; now the root's ETag alone tells it nothing changed.
      requests.reset();
      await syncOnce('nextcloudcmd', server, owner, laptop);
      expect(transfers(), await why()).toEqual([]);
      expect(requests.count('PROPFIND')).toBe(1);
    });

    it('brings changes, renames, moves and deletes made on the server down, downloading only new bytes', async () => {
      const expected = await digests(laptop);
      const changed = 'changed on the server';
      expect((await dav('PUT', 'd0/s0/f0.bin', changed)).statusCode).toBe(204);
      expected.set('d0/s0/f0.bin', sha256(changed));
      const renamed = await web.patch(`/api/rename/${await idOf('d1/s1/f1.bin')}`, {
        name: 'renamed.bin',
        type: 'file',
      });
      expect(renamed.statusCode).toBe(200);
      move(expected, 'd1/s1/f1.bin', 'd1/s1/renamed.bin');
      const moved = await dav('MOVE', 'd2/s2/f2.bin', undefined, {
        destination: `/remote.php/dav/files/${owner.user.id}/d3/f2.bin`,
      });
      expect(moved.statusCode).toBe(201);
      move(expected, 'd2/s2/f2.bin', 'd3/f2.bin');
      const removed = await web.post('/api/remove', {
        items: [{ id: await idOf('d4/s4/f4.bin'), type: 'file' }],
      });
      expect(removed.statusCode).toBe(204);
      expected.delete('d4/s4/f4.bin');
      expect((await dav('PUT', 'd5/s5/new.bin', 'new on the server')).statusCode).toBe(201);
      expected.set('d5/s5/new.bin', sha256('new on the server'));

      requests.reset();
      await syncOnce('nextcloudcmd', server, owner, laptop);
      expect(await digests(laptop)).toEqual(sorted(expected));
      // The changed and the new file; the renamed and moved ones are moved on the disk.
      expect(requests.count('GET', '/remote.php/dav/')).toBe(2);
      expect(requests.count('PUT', '/remote.php/dav/') + requests.count('POST', '/remote.php/dav/')).toBe(0);
    });

    it('sends changes, renames, moves and deletes made on the computer up', async () => {
      await writeFile(join(laptop, 'd0/s3/f10.bin'), 'changed on the laptop');
      await rename(join(laptop, 'd1/s4/f11.bin'), join(laptop, 'd1/s4/eleven.bin'));
      await rename(join(laptop, 'd2/s5/f12.bin'), join(laptop, 'd9/f12.bin'));
      await rename(join(laptop, 'd8/s1'), join(laptop, 'd8/s1-renamed'));
      await rm(join(laptop, 'd3/s6/f13.bin'));
      await writeFile(join(laptop, 'd7/added.bin'), 'added on the laptop');
      const kept = { before: await idOf('d2/s5/f12.bin'), folder: await idOf('d8/s1/') };

      requests.reset();
      await syncOnce('nextcloudcmd', server, owner, laptop);
      // Renames and moves are moves on the server: the items keep their ids, no bytes are sent again.
      expect(await idOf('d9/f12.bin')).toBe(kept.before);
      expect(await idOf('d8/s1-renamed/')).toBe(kept.folder);
      expect(requests.count('MOVE', '/remote.php/dav/')).toBe(3);
      expect(requests.count('DELETE', '/remote.php/dav/')).toBe(1);
      expect((await dav('GET', 'd0/s3/f10.bin')).body).toBe('changed on the laptop');

      // The desktop lists again every folder changed since its last run, and downloads only the two
      // files changed on the server before and the two changed on the laptop now: the others in
      // those folders have the ETag and the time it recorded.
      requests.reset();
      await syncOnce('nextcloudcmd', server, owner, desktop);
      expect(await digests(desktop)).toEqual(await digests(laptop));
      expect(requests.count('GET', '/remote.php/dav/')).toBe(4);
    });

    it('keeps both contents of a file changed on both sides: the server copy, and a conflict copy', async () => {
      expect((await dav('PUT', 'd6/s6/f6.bin', 'changed on the server side')).statusCode).toBe(204);
      await writeFile(join(laptop, 'd6/s6/f6.bin'), 'the laptop side');
      await syncOnce('nextcloudcmd', server, owner, laptop);
      const names = (await readdir(join(laptop, 'd6/s6'))).filter((name) => /^f6[ .]/.test(name));
      expect(names).toHaveLength(2);
      expect(names).toContain('f6.bin');
      expect(names.find((name) => name !== 'f6.bin')).toMatch(/^f6 \(conflicted copy .*\)\.bin$/);
      const contents = await Promise.all(names.map((name) => readFile(join(laptop, 'd6/s6', name), 'utf8')));
      expect(contents.sort()).toEqual(['changed on the server side', 'the laptop side']);
      expect(await readFile(join(laptop, 'd6/s6/f6.bin'), 'utf8')).toBe('changed on the server side');
      expect((await dav('GET', 'd6/s6/f6.bin')).body).toBe('changed on the server side');
    });

    it(
      "syncs a team folder with the member's permission: a viewer's local edit stays local, an editor's goes up",
      async () => {
        const created = await web.post('/api/teams/folders', { name: 'Studio', invitations: [] });
        expect(created.statusCode).toBe(201);
        expect((await dav('PUT', 'Studio/brief.txt', 'the brief')).statusCode).toBe(201);
        const members = { viewer: await server.account(), editor: await server.account() };
        for (const [role, member] of Object.entries(members))
          await addTeamMember(
            server,
            created.json().data.id,
            member.user.id,
            role === 'viewer' ? 'can_view' : 'can_edit',
          );
        for (const [role, member] of Object.entries(members)) {
          const folder = join(work, role);
          await mkdir(folder);
          await syncOnce('nextcloudcmd', server, member, folder);
          expect(await digests(folder)).toEqual(new Map([['Studio/brief.txt', sha256('the brief')]]));
          await writeFile(join(folder, 'Studio/brief.txt'), `the ${role}'s edit`);
          requests.reset();
          await syncOnce('nextcloudcmd', server, member, folder);
          const sent = requests.count('PUT', '/Studio/') + requests.count('POST', '/remote.php/dav/');
          if (role === 'viewer') {
            expect(sent).toBe(0);
            expect((await dav('GET', 'Studio/brief.txt')).body).toBe('the brief');
          } else {
            expect(sent).toBeGreaterThan(0);
            expect((await dav('GET', 'Studio/brief.txt')).body).toBe("the editor's edit");
          }
        }
      },
      LONG,
    );

    it(
      'owncloudcmd sends a tree up, another computer gets it the same, and a second run transfers nothing',
      async () => {
        const account = await server.account();
        const [up, down] = [join(work, 'oc-up'), join(work, 'oc-down')];
        await Promise.all([mkdir(up), mkdir(down)]);
        await writeTree(up, 100, 2, true);
        await syncOnce('owncloudcmd', server, account, up);
        await syncOnce('owncloudcmd', server, account, down);
        expect(await digests(down)).toEqual(await digests(up));
        requests.reset();
        await syncOnce('owncloudcmd', server, account, up);
        await syncOnce('owncloudcmd', server, account, down);
        expect(transfers(), await why()).toEqual([]);
      },
      LONG,
    );

    it(
      `rclone with the nextcloud vendor copies ${files} files up and down with equal checksums`,
      async () => {
        const account = await server.account();
        const [up, down] = [join(work, 'rclone-up'), join(work, 'rclone-down')];
        await writeTree(up, files, 3, true);
        const { stdout: obscured } = await run('rclone', ['obscure', account.password]);
        const remote = `:webdav,url='${server.origin}/remote.php/dav/files/${account.email}/',vendor=nextcloud,user='${account.email}',pass='${obscured.trim()}':tree`;
        const rclone = (...args: string[]) =>
          run(
            'rclone',
            [...args, '--transfers', '8', '--checkers', '8', '--retries', '1', '--config', '/dev/null'],
            {
              timeout: 420_000,
            },
          );
        await rclone('copy', up, remote);
        // Compared by SHA-1: rclone sent it with each file (OC-Checksum) and reads it back in oc:checksums.
        const { stderr } = await rclone('check', up, remote, '--checksum');
        expect(stderr).toMatch(/0 differences found/);
        expect(stderr).not.toMatch(/hash/i);
        await rclone('copy', remote, down);
        expect(await digests(down)).toEqual(await digests(up));
      },
      LONG,
    );
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function move(files: Map<string, string>, from: string, to: string): void {
  files.set(to, files.get(from)!);
  files.delete(from);
}

function sorted(files: Map<string, string>): Map<string, string> {
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}
