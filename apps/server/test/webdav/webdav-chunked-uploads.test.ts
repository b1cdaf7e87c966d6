import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { databaseKinds } from '../support/databases';
import { createUser, DEFAULT_PASSWORD } from '../support/factories';
import { seededBuffer } from '../support/seeded-noise';
import { createFilesTestApp, type FilesTestApp, type StorageKind } from '../files/files-harness';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import { addTeamMember, basic } from './webdav-harness';

/** The two shapes: embedded (SQLite, local disk) and scaled out (PostgreSQL when configured, S3). */
const shapes: [(typeof databaseKinds)[number], StorageKind][] = [
  ['sqlite', 'local'],
  [databaseKinds.at(-1)!, 's3'],
];
const MiB = 1024 * 1024;
const START = new Date('2026-03-02T10:00:00Z');

for (const [database, storage] of shapes) {
  describe(`Chunked and bulk uploads of the sync clients [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let now = START;
    let owner: Person;

    interface Person {
      user: UserRow;
      auth: string;
      uploads: string;
      files: string;
    }
    const person = async (capacity?: number): Promise<Person> => {
      const { user } = await createUser(t.deps, capacity === undefined ? {} : { storageCapacity: capacity });
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'Desktop' });
      return {
        user,
        auth: basic(user.email, password),
        uploads: `/remote.php/dav/uploads/${user.email}`,
        files: `/remote.php/dav/files/${user.email}`,
      };
    };
    const dav = (
      who: Person,
      method: string,
      url: string,
      payload?: string | Buffer,
      headers: Record<string, string> = {},
    ) =>
      t.app.inject({
        method: method as 'GET',
        url,
        payload,
        headers: { authorization: who.auth, ...headers },
      });
    const usage = async (who: Person) => {
      const row = await t.deps.database.db
        .selectFrom('storage_usage')
        .select(['used_bytes', 'reserved_bytes'])
        .where('user_id', '=', who.user.id)
        .executeTakeFirst();
      return { used: Number(row?.used_bytes ?? 0), reserved: Number(row?.reserved_bytes ?? 0) };
    };
    const state = async () => ({
      objects: (await t.storedObjects()).sort(),
      items: await t.deps.database.db
        .selectFrom('items')
        .select(['id', 'name', 'size'])
        .orderBy('id')
        .execute(),
    });
    const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
    const offsetName = (offset: number) => String(offset).padStart(16, '0');

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, { mimetypes_blacklist: ['exe'] }, () => now);
      owner = await person();
    });
    afterAll(() => t.close());

    it('assembles a v1 "NG" upload: MKCOL, chunks named by offset, PROPFIND, MOVE .file with a checksum', async () => {
      const bytes = seededBuffer(1, 3 * MiB + 123);
      const transfer = `${owner.uploads}/1234567`;
      expect(
        (await dav(owner, 'MKCOL', transfer, undefined, { 'oc-total-length': String(bytes.length) }))
          .statusCode,
      ).toBe(201);
      const cuts = [0, 2 * MiB, 3 * MiB, bytes.length];
      for (let i = 0; i < cuts.length - 1; i++) {
        const chunk = bytes.subarray(cuts[i], cuts[i + 1]);
        const put = await dav(owner, 'PUT', `${transfer}/${offsetName(cuts[i]!)}`, chunk, {
          'oc-chunk-offset': String(cuts[i]),
          'content-type': 'application/octet-stream',
        });
        expect(put.statusCode).toBe(201);
      }
      // Held in the quota while they wait.
      expect((await usage(owner)).reserved).toBe(bytes.length);

      const listing = await dav(owner, 'PROPFIND', `${transfer}/`, undefined, { depth: '1' });
      expect(listing.statusCode).toBe(207);
      for (let i = 0; i < cuts.length - 1; i++) {
        expect(listing.body).toContain(`${transfer}/${offsetName(cuts[i]!)}`);
        expect(listing.body).toContain(`<D:getcontentlength>${cuts[i + 1]! - cuts[i]!}</D:getcontentlength>`);
      }

      const move = await dav(owner, 'MOVE', `${transfer}/.file`, undefined, {
        destination: `http://localhost:80${owner.files}/big.bin`,
        'oc-total-length': String(bytes.length),
        'oc-checksum': `SHA1:${sha1(bytes)}`,
        'x-oc-mtime': '1700000000',
      });
      expect(move.statusCode).toBe(201);
      expect(move.headers.etag).toBeTruthy();

      const download = await dav(owner, 'GET', `${owner.files}/big.bin`);
      expect(download.statusCode).toBe(200);
      expect(sha1(download.rawPayload)).toBe(sha1(bytes));
      // The transfer is gone, and its chunks with it: the file alone counts, nothing stays held.
      expect((await dav(owner, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(404);
      expect(await usage(owner)).toEqual({ used: bytes.length, reserved: 0 });
    });

    it('lets a client resume: PROPFIND lists what arrived, a chunk sent again replaces itself', async () => {
      const someone = await person();
      const bytes = seededBuffer(2, 2 * MiB);
      const transfer = `${someone.uploads}/resumed`;
      await dav(someone, 'MKCOL', transfer);
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, bytes.subarray(0, MiB));
      // The client lost the answer and sends the same chunk again: it is held once.
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, bytes.subarray(0, MiB));
      expect((await usage(someone)).reserved).toBe(MiB);
      // A new run of the client asks what the server holds, and sends only the rest.
      const listing = await dav(someone, 'PROPFIND', `${transfer}/`, undefined, { depth: '1' });
      expect(listing.body).toContain(offsetName(0));
      expect(listing.body).not.toContain(offsetName(MiB));
      await dav(someone, 'PUT', `${transfer}/${offsetName(MiB)}`, bytes.subarray(MiB));
      const move = await dav(someone, 'MOVE', `${transfer}/.file`, undefined, {
        destination: `${someone.files}/resumed.bin`,
      });
      expect(move.statusCode).toBe(201);
      expect(sha1((await dav(someone, 'GET', `${someone.files}/resumed.bin`)).rawPayload)).toBe(sha1(bytes));
    });

    it('assembles a v2 upload (Destination on every request, chunks 1..10000) and keeps the replaced bytes as a version', async () => {
      const first = seededBuffer(3, 64);
      await dav(owner, 'PUT', `${owner.files}/model.bin`, first);
      const bytes = seededBuffer(4, 5 * MiB + 10);
      const destination = `http://localhost:80${owner.files}/model.bin`;
      const transfer = `${owner.uploads}/web-file-upload-0123456789abcdef`;
      expect((await dav(owner, 'MKCOL', transfer, undefined, { destination })).statusCode).toBe(201);
      // A chunk without the Destination its transfer names, or numbered outside 1..10000, is refused.
      expect((await dav(owner, 'PUT', `${transfer}/1`, bytes.subarray(0, 10))).statusCode).toBe(400);
      expect(
        (await dav(owner, 'PUT', `${transfer}/0`, bytes.subarray(0, 10), { destination })).statusCode,
      ).toBe(400);
      expect(
        (await dav(owner, 'PUT', `${transfer}/10001`, bytes.subarray(0, 10), { destination })).statusCode,
      ).toBe(400);
      expect(
        (await dav(owner, 'PUT', `${transfer}/1`, bytes.subarray(0, 5 * MiB), { destination })).statusCode,
      ).toBe(201);
      expect(
        (await dav(owner, 'PUT', `${transfer}/2`, bytes.subarray(5 * MiB), { destination })).statusCode,
      ).toBe(201);
      const move = await dav(owner, 'MOVE', `${transfer}/.file`, undefined, {
        destination,
        'oc-total-length': String(bytes.length),
      });
      expect(move.statusCode).toBe(204);
      expect(sha1((await dav(owner, 'GET', `${owner.files}/model.bin`)).rawPayload)).toBe(sha1(bytes));
      const file = await t.deps.database.db
        .selectFrom('items')
        .select('id')
        .where('user_id', '=', owner.user.id)
        .where('name', '=', 'model.bin')
        .executeTakeFirstOrThrow();
      const versions = await t.deps.database.db
        .selectFrom('file_versions')
        .innerJoin('file_contents', 'file_contents.id', 'file_versions.content_id')
        .select('file_contents.size')
        .where('file_versions.item_id', '=', file.id)
        .execute();
      expect(versions.map((v) => Number(v.size))).toEqual([first.length]);
    });

    it('replaces a file only while it is as the client last saw it (the If header the client turns If-Match into)', async () => {
      const url = `${owner.files}/edited.bin`;
      const put = await dav(owner, 'PUT', url, seededBuffer(14, 100));
      const seen = put.headers.etag as string;
      // Someone changes the file on the server meanwhile.
      const changed = (await dav(owner, 'PUT', url, seededBuffer(15, 100))).headers.etag as string;
      const send = async (transfer: string, etag: string) => {
        await dav(owner, 'MKCOL', `${owner.uploads}/${transfer}`);
        await dav(owner, 'PUT', `${owner.uploads}/${transfer}/${offsetName(0)}`, seededBuffer(16, 200));
        return dav(owner, 'MOVE', `${owner.uploads}/${transfer}/.file`, undefined, {
          destination: `http://localhost:80${url}`,
          if: `<http://localhost:80${url}> ([${etag}])`,
        });
      };
      expect((await send('stale', seen)).statusCode).toBe(412);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(seededBuffer(15, 100));
      expect((await send('fresh', changed)).statusCode).toBe(204);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(seededBuffer(16, 200));
    });

    it('keeps a transfer whose MOVE meets a lock, held in the quota, for the MOVE sent once it is gone', async () => {
      const url = `${owner.files}/drawing.bin`;
      expect((await dav(owner, 'PUT', url, seededBuffer(17, 50))).statusCode).toBe(201);
      // Another app of the person's (an editor, a mounted drive) holds the file locked for a while.
      const lock = await dav(
        owner,
        'LOCK',
        url,
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
      );
      expect(lock.statusCode).toBe(200);
      const bytes = seededBuffer(18, 300);
      const transfer = `${owner.uploads}/waits-for-lock`;
      expect((await dav(owner, 'MKCOL', transfer)).statusCode).toBe(201);
      expect((await dav(owner, 'PUT', `${transfer}/${offsetName(0)}`, bytes)).statusCode).toBe(201);
      const before = await usage(owner);
      const move = () =>
        dav(owner, 'MOVE', `${transfer}/.file`, undefined, { destination: `http://localhost:80${url}` });
      expect((await move()).statusCode).toBe(423);
      // Nothing lost: the chunks are still listed and held as they were.
      const listing = await dav(owner, 'PROPFIND', `${transfer}/`, undefined, { depth: '1' });
      expect(listing.statusCode).toBe(207);
      expect(listing.body).toContain(`${transfer}/${offsetName(0)}`);
      expect(await usage(owner)).toEqual(before);
      const token = /^<(.+)>$/.exec(lock.headers['lock-token'] as string)![1]!;
      expect((await dav(owner, 'UNLOCK', url, undefined, { 'lock-token': `<${token}>` })).statusCode).toBe(
        204,
      );
      expect((await move()).statusCode).toBe(204);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(bytes);
      expect((await dav(owner, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(404);
      expect((await usage(owner)).reserved).toBe(0);
    });

    it('refuses v2 chunks under 5 MiB but the last at MOVE, and chunks that do not add up to OC-Total-Length', async () => {
      const destination = `${owner.files}/small-chunks.bin`;
      const transfer = `${owner.uploads}/small-chunks`;
      await dav(owner, 'MKCOL', transfer, undefined, { destination });
      await dav(owner, 'PUT', `${transfer}/1`, seededBuffer(5, 1000), { destination });
      await dav(owner, 'PUT', `${transfer}/2`, seededBuffer(6, 1000), { destination });
      const move = (total: number) =>
        dav(owner, 'MOVE', `${transfer}/.file`, undefined, { destination, 'oc-total-length': String(total) });
      expect((await move(2000)).statusCode).toBe(400);
      await dav(owner, 'DELETE', `${transfer}/2`);
      // Kept for the client to mend: now the one chunk is the last, but the total is wrong.
      expect((await move(2000)).statusCode).toBe(400);
      expect((await move(1000)).statusCode).toBe(201);
    });

    it('assembles a transfer once when its MOVE is sent twice at once, and checks the length its MKCOL gave', async () => {
      const url = `${owner.files}/twice-moved.bin`;
      const bytes = seededBuffer(21, 200);
      const transfer = `${owner.uploads}/twice-moved`;
      expect((await dav(owner, 'MKCOL', transfer, undefined, { 'oc-total-length': '200' })).statusCode).toBe(
        201,
      );
      await dav(owner, 'PUT', `${transfer}/${offsetName(0)}`, bytes);
      const move = () =>
        dav(owner, 'MOVE', `${transfer}/.file`, undefined, { destination: `http://localhost:80${url}` });
      const answers = await Promise.all([move(), move()]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 404]);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(bytes);

      // A chunk lost on the way: the MOVE without a length of its own is held to the MKCOL's.
      const short = `${owner.uploads}/lost-chunk`;
      await dav(owner, 'MKCOL', short, undefined, { 'oc-total-length': '300' });
      await dav(owner, 'PUT', `${short}/${offsetName(0)}`, seededBuffer(22, 200));
      const truncated = await dav(owner, 'MOVE', `${short}/.file`, undefined, {
        destination: `http://localhost:80${owner.files}/lost-chunk.bin`,
      });
      expect(truncated.statusCode).toBe(400);
      expect((await dav(owner, 'GET', `${owner.files}/lost-chunk.bin`)).statusCode).toBe(404);
      // Kept for the client to mend; this one gives up.
      expect((await dav(owner, 'DELETE', short)).statusCode).toBe(204);
    });

    it('leaves an existing file as it is when the MOVE says Overwrite: F (412)', async () => {
      const url = `${owner.files}/kept-as-is.bin`;
      await dav(owner, 'PUT', url, seededBuffer(23, 100));
      const transfer = `${owner.uploads}/not-over`;
      await dav(owner, 'MKCOL', transfer);
      await dav(owner, 'PUT', `${transfer}/${offsetName(0)}`, seededBuffer(24, 200));
      const move = (overwrite: string) =>
        dav(owner, 'MOVE', `${transfer}/.file`, undefined, {
          destination: `http://localhost:80${url}`,
          overwrite,
        });
      expect((await move('F')).statusCode).toBe(412);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(seededBuffer(23, 100));
      expect((await move('T')).statusCode).toBe(204);
      expect((await dav(owner, 'GET', url)).rawPayload).toEqual(seededBuffer(24, 200));
    });

    it('keeps nothing of an upload whose checksum does not match, or whose name is blacklisted', async () => {
      const someone = await person();
      const before = await state();
      const transfer = `${someone.uploads}/wrong`;
      await dav(someone, 'MKCOL', transfer);
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, seededBuffer(7, 4096));
      const wrong = await dav(someone, 'MOVE', `${transfer}/.file`, undefined, {
        destination: `${someone.files}/wrong.bin`,
        'oc-checksum': `SHA1:${sha1(Buffer.from('other bytes'))}`,
      });
      expect(wrong.statusCode).toBe(400);

      await dav(someone, 'MKCOL', `${someone.uploads}/exe`);
      await dav(someone, 'PUT', `${someone.uploads}/exe/${offsetName(0)}`, seededBuffer(8, 4096));
      const refused = await dav(someone, 'MOVE', `${someone.uploads}/exe/.file`, undefined, {
        destination: `${someone.files}/setup.exe`,
      });
      expect(refused.statusCode).toBe(403);
      // v2 knows the name from the start: refused before any chunk.
      expect(
        (
          await dav(someone, 'MKCOL', `${someone.uploads}/exe2`, undefined, {
            destination: `${someone.files}/a.exe`,
          })
        ).statusCode,
      ).toBe(403);
      expect(await state()).toEqual(before);
      expect(await usage(someone)).toEqual({ used: 0, reserved: 0 });
    });

    it('answers 507 past the quota, and keeps nothing of the transfer', async () => {
      const small = await person(MiB);
      const before = await state();
      expect(
        (
          await dav(small, 'MKCOL', `${small.uploads}/announced`, undefined, {
            'oc-total-length': String(2 * MiB),
          })
        ).statusCode,
      ).toBe(507);
      const transfer = `${small.uploads}/grows`;
      expect((await dav(small, 'MKCOL', transfer)).statusCode).toBe(201);
      expect(
        (await dav(small, 'PUT', `${transfer}/${offsetName(0)}`, seededBuffer(9, MiB / 2))).statusCode,
      ).toBe(201);
      expect(
        (await dav(small, 'PUT', `${transfer}/${offsetName(MiB / 2)}`, seededBuffer(10, MiB))).statusCode,
      ).toBe(507);
      expect((await dav(small, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(404);
      expect(await state()).toEqual(before);
      expect(await usage(small)).toEqual({ used: 0, reserved: 0 });
    });

    it("holds a member's v2 transfer into a team folder in the team owner's quota, not the member's", async () => {
      const boss = await person();
      const team = await t.deps.teams.create(boss.user.id, { name: 'Bench', invitations: [] });
      const member = await person(MiB);
      await addTeamMember(t, team.data.id, member.user.id, 'can_edit');
      const bytes = seededBuffer(21, 5 * MiB + 100);
      const destination = `http://localhost:80${member.files}/Bench/part.bin`;
      const transfer = `${member.uploads}/web-file-upload-team`;
      expect((await dav(member, 'MKCOL', transfer, undefined, { destination })).statusCode).toBe(201);
      const first = await dav(member, 'PUT', `${transfer}/1`, bytes.subarray(0, 5 * MiB), { destination });
      expect(first.statusCode, first.body).toBe(201);
      // While the chunks wait, the team's owner holds them; the member's own quota (1 MiB) is untouched.
      expect((await usage(boss)).reserved).toBe(5 * MiB);
      expect(await usage(member)).toEqual({ used: 0, reserved: 0 });
      expect(
        (await dav(member, 'PUT', `${transfer}/2`, bytes.subarray(5 * MiB), { destination })).statusCode,
      ).toBe(201);
      const move = await dav(member, 'MOVE', `${transfer}/.file`, undefined, {
        destination,
        'oc-total-length': String(bytes.length),
      });
      expect(move.statusCode, move.body).toBe(201);
      expect(await usage(boss)).toEqual({ used: bytes.length, reserved: 0 });
      expect(await usage(member)).toEqual({ used: 0, reserved: 0 });
    });

    it('sweeps a transfer nobody continued for a day: its chunks and its hold go', async () => {
      const someone = await person();
      const before = await state();
      const transfer = `${someone.uploads}/left`;
      await dav(someone, 'MKCOL', transfer);
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, seededBuffer(11, 10_000));
      expect((await usage(someone)).reserved).toBe(10_000);
      now = new Date(START.getTime() + 23 * 60 * 60_000);
      await t.deps.chunkedUploads.sweep(now);
      expect((await dav(someone, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(
        207,
      );
      now = new Date(START.getTime() + 25 * 60 * 60_000);
      await t.deps.chunkedUploads.sweep(now);
      expect((await dav(someone, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(
        404,
      );
      expect(await usage(someone)).toEqual({ used: 0, reserved: 0 });
      expect(await state()).toEqual(before);
      now = START;
    });

    it('keeps the holds of a transfer still under way a day on, when the sweep of abandoned uploads runs', async () => {
      const someone = await person();
      const transfer = `${someone.uploads}/slow`;
      await dav(someone, 'MKCOL', transfer);
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, seededBuffer(12, 10_000));
      now = new Date(START.getTime() + 23 * 60 * 60_000);
      await dav(someone, 'PUT', `${transfer}/${offsetName(10_000)}`, seededBuffer(13, 10_000));
      now = new Date(START.getTime() + 25 * 60 * 60_000);
      await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, now);
      await t.deps.chunkedUploads.sweep(now);
      expect((await usage(someone)).reserved).toBe(20_000);
      expect((await dav(someone, 'PROPFIND', `${transfer}/`, undefined, { depth: '0' })).statusCode).toBe(
        207,
      );
      now = START;
    });

    it('keeps the bytes of a transfer whose holds the sweep of abandoned uploads took: the transfer still names them', async () => {
      const someone = await person();
      const transfer = `${someone.uploads}/resumed`;
      const bytes = seededBuffer(14, 10_000);
      await dav(someone, 'MKCOL', transfer);
      await dav(someone, 'PUT', `${transfer}/${offsetName(0)}`, bytes);
      // A day on, the upload sweep runs before the sweep of transfers, and the client comes back.
      now = new Date(START.getTime() + 25 * 60 * 60_000);
      await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, now);
      const move = await dav(someone, 'MOVE', `${transfer}/.file`, undefined, {
        destination: `http://localhost:80${someone.files}/resumed.bin`,
      });
      expect(move.statusCode, move.body).toBe(201);
      expect(sha1((await dav(someone, 'GET', `${someone.files}/resumed.bin`)).rawPayload)).toBe(sha1(bytes));
      now = START;
    });

    it('signs in only with a live app password of the user the path names', async () => {
      const other = await person();
      await dav(owner, 'MKCOL', `${owner.uploads}/mine`);
      // Another user's transfer is not found, whatever their own password.
      expect(
        (await dav(other, 'PROPFIND', `${owner.uploads}/mine/`, undefined, { depth: '0' })).statusCode,
      ).toBe(404);
      expect((await dav(other, 'PUT', `${owner.uploads}/mine/${offsetName(0)}`, 'x')).statusCode).toBe(404);
      // The account password is never a WebDAV password; a revoked app password no longer is one.
      const { password } = await t.deps.appPasswords.create(owner.user.id, { name: 'Revoked' });
      const [revoked] = (await t.deps.appPasswords.list(owner.user.id)).data.filter(
        (p) => p.attributes.name === 'Revoked',
      );
      await t.deps.appPasswords.revoke(owner.user.id, revoked!.id);
      // Four wrong sign-ins in all, under sign-in's throttle of five a minute.
      const accountPassword = { ...owner, auth: basic(owner.user.email, DEFAULT_PASSWORD) };
      const revokedPassword = { ...owner, auth: basic(owner.user.email, password) };
      expect((await dav(accountPassword, 'PROPFIND', `${owner.uploads}/`)).statusCode).toBe(401);
      expect((await dav(revokedPassword, 'MKCOL', `${owner.uploads}/refused`)).statusCode).toBe(401);
      expect(
        (await dav(revokedPassword, 'PUT', `${owner.uploads}/mine/${offsetName(0)}`, 'x')).statusCode,
      ).toBe(401);
      const bulk = { 'content-type': 'multipart/related; boundary=b' };
      expect((await dav(accountPassword, 'POST', '/remote.php/dav/bulk', '--b--\r\n', bulk)).statusCode).toBe(
        401,
      );
      expect((await dav(owner, 'PROPFIND', `${owner.uploads}/`, undefined, { depth: '1' })).body).toContain(
        '/mine/',
      );
    });

    it('stores a bulk upload file by file, answering each as Nextcloud does; a bad part fails alone', async () => {
      const someone = await person();
      await dav(someone, 'MKCOL', `${someone.files}/docs`);
      const good = seededBuffer(12, 10_000);
      const other = seededBuffer(13, 5_000);
      const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
      const files = [
        { path: '/docs/a.bin', bytes: good, md5: `MD5:${md5(good)}` },
        { path: '/missing/b.bin', bytes: other, md5: `MD5:${md5(other)}` },
        { path: '/docs/c.bin', bytes: other, md5: `MD5:${md5(good)}` },
        { path: '/docs/d.exe', bytes: other, md5: md5(other) },
        { path: '/e.bin', bytes: other, md5: md5(other) },
        { path: '/docs/empty.txt', bytes: Buffer.alloc(0), md5: md5(Buffer.alloc(0)) },
      ];
      const boundary = 'boundary_.oOo._Zk1Qx';
      const body = Buffer.concat([
        ...files.flatMap((file) => [
          Buffer.from(
            `--${boundary}\r\nContent-Type: application/octet-stream\r\nX-File-Mtime: 1700000000\r\n` +
              `X-File-MD5: ${file.md5}\r\nContent-Length: ${file.bytes.length}\r\nX-File-Path: ${file.path}\r\n\r\n`,
          ),
          file.bytes,
          Buffer.from('\r\n'),
        ]),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const answer = await dav(someone, 'POST', '/remote.php/dav/bulk', body, {
        'content-type': `multipart/related; boundary="${boundary}"`,
      });
      expect(answer.statusCode).toBe(200);
      const answers = answer.json() as Record<string, { error: boolean; etag?: string; message?: string }>;
      expect(Object.keys(answers)).toEqual(files.map((f) => f.path));
      expect(answers['/docs/a.bin']).toMatchObject({ error: false, etag: expect.any(String) });
      expect(answers['/e.bin']).toMatchObject({ error: false });
      expect(answers['/docs/empty.txt']).toMatchObject({ error: false });
      expect((await dav(someone, 'GET', `${someone.files}/docs/empty.txt`)).rawPayload).toHaveLength(0);
      for (const path of ['/missing/b.bin', '/docs/c.bin', '/docs/d.exe'])
        expect(answers[path]).toMatchObject({ error: true, message: expect.any(String) });
      expect(sha1((await dav(someone, 'GET', `${someone.files}/docs/a.bin`)).rawPayload)).toBe(sha1(good));
      for (const path of ['/docs/c.bin', '/docs/d.exe'])
        expect((await dav(someone, 'GET', `${someone.files}${path}`)).statusCode).toBe(404);
      expect(await usage(someone)).toEqual({ used: good.length + other.length, reserved: 0 });
    });

    it('leaves a file sent again by an overlapping bulk POST with one ETag, the one both answers name', async () => {
      // nextcloudcmd 3.7 starts its next batch of 100 while the first POST is still being stored and
      // sends it together with the first batch again (BulkPropagatorJob keeps the first in
      // _filesToUpload until its answer): the engine records the first POST's answers only.
      const someone = await person();
      await dav(someone, 'MKCOL', `${someone.files}/d`);
      const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
      const boundary = 'boundary_.oOo._again';
      const MTIME = 1700000000;
      const part = (i: number, mtime = MTIME) => {
        const bytes = seededBuffer(100 + i, 100 + ((i * 37) % 4000));
        return Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Type: application/octet-stream\r\nX-File-Mtime: ${mtime}\r\n` +
              `X-File-MD5: ${md5(bytes)}\r\nContent-Length: ${bytes.length}\r\nX-File-Path: /d/f${i}.bin\r\n\r\n`,
          ),
          bytes,
          Buffer.from('\r\n'),
        ]);
      };
      const body = (ids: number[]) =>
        Buffer.concat([...ids.map((i) => part(i)), Buffer.from(`--${boundary}--\r\n`)]);
      const first = [...Array(24).keys()];
      const headers = { 'content-type': `multipart/related; boundary="${boundary}"` };
      const [one, two] = await Promise.all([
        dav(someone, 'POST', '/remote.php/dav/bulk', body(first), headers),
        dav(someone, 'POST', '/remote.php/dav/bulk', body([...first, ...first.map((i) => i + 24)]), headers),
      ]);
      // And once more after both: the same bytes and time change nothing.
      const three = await dav(someone, 'POST', '/remote.php/dav/bulk', body(first), headers);
      const listing = (await dav(someone, 'PROPFIND', `${someone.files}/d/`, undefined, { depth: '1' })).body;
      for (const i of first) {
        const path = `/d/f${i}.bin`;
        const response = listing.split('<D:response>').find((r) => r.includes(`/d/f${i}.bin</D:href>`))!;
        const etag = /<D:getetag>([^<]+)</.exec(response)![1]!.replaceAll('&#34;', '"');
        expect(one.json()[path].etag, path).toBe(etag);
        expect(two.json()[path].etag, path).toBe(etag);
        expect(three.json()[path].etag, path).toBe(etag);
        expect(response, path).toContain(new Date(MTIME * 1000).toUTCString());
      }
      const versions = async () => {
        const { count } = await t.deps.database.db
          .selectFrom('file_versions')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', someone.user.id)
          .executeTakeFirstOrThrow();
        return Number(count);
      };
      expect(await versions()).toBe(0);
      // The same bytes with another time are a save of their own: a new ETag, the old content a version.
      const later = await dav(
        someone,
        'POST',
        '/remote.php/dav/bulk',
        Buffer.concat([part(0, MTIME + 60), Buffer.from(`--${boundary}--\r\n`)]),
        headers,
      );
      expect(later.json()['/d/f0.bin'].etag).not.toBe(one.json()['/d/f0.bin'].etag);
      expect(await versions()).toBe(1);
    });

    it('refuses a bulk body that is no multipart/related, or whose part ends early', async () => {
      const someone = await person();
      expect(
        (await dav(someone, 'POST', '/remote.php/dav/bulk', 'x', { 'content-type': 'text/plain' }))
          .statusCode,
      ).toBe(400);
      const cut = `--b\r\nX-File-Path: /a.bin\r\nContent-Length: 100\r\n\r\nshort`;
      expect(
        (
          await dav(someone, 'POST', '/remote.php/dav/bulk', cut, {
            'content-type': 'multipart/related; boundary=b',
          })
        ).statusCode,
      ).toBe(400);
      expect(await usage(someone)).toEqual({ used: 0, reserved: 0 });
    });
  });
}
