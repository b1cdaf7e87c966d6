import { ItemList } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import type { TestAgent } from '../support/agent';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { restrictAsUnpaid } from '../support/unpaid-account';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from '../files/files-harness';
import { basic } from './webdav-harness';
import { killedWhileFiling } from '../support/killed-while-filing';

type DavMethod =
  'GET' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK';

for (const [database, storage] of filesMatrix) {
  describe(`WebDAV [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: { user: UserRow; agent: TestAgent; auth: string };

    /** A user signed in on the web and holding an app password for WebDAV. */
    const person = async (capacity?: number) => {
      const { user } = await createUser(t.deps, capacity === undefined ? {} : { storageCapacity: capacity });
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
      return { user, agent: (await signedInAgent(t.app, user)).agent, auth: basic(user.email, password) };
    };
    const dav = (
      auth: string,
      method: DavMethod,
      url: string,
      payload?: string | Buffer,
      headers: Record<string, string> = {},
    ) =>
      t.app.inject({
        method: method as 'GET',
        url,
        payload,
        headers: { authorization: auth, ...headers },
      });
    const rootListing = async (agent: TestAgent) =>
      ItemList.parse((await agent.get('/api/browse/folders/all')).json());
    const snapshot = async () => ({
      items: await t.deps.database.db
        .selectFrom('items')
        .select(['id', 'name', 'size'])
        .orderBy('id')
        .execute(),
      objects: (await t.storedObjects()).sort(),
    });

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, { mimetypes_blacklist: ['exe'] });
      owner = await person();
    });
    afterAll(() => t.close());

    it('answers OPTIONS with the classes it speaks and what Windows looks for', async () => {
      const answer = await t.app.inject({ method: 'OPTIONS', url: '/dav/files/' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.dav).toBe('1, 2');
      expect(answer.headers['ms-author-via']).toBe('DAV');
      expect(answer.headers.allow).toContain('PROPFIND');
    });

    it('signs in only with an app password: not the account password, a wrong one or a revoked one', async () => {
      const someone = await person();
      const { password } = await t.deps.appPasswords.create(someone.user.id, { name: 'Revoked' });
      const [revoked] = (await t.deps.appPasswords.list(someone.user.id)).data.filter(
        (p) => p.attributes.name === 'Revoked',
      );
      await t.deps.appPasswords.revoke(someone.user.id, revoked!.id);
      for (const auth of [
        undefined,
        basic(someone.user.email, DEFAULT_PASSWORD),
        basic(someone.user.email, 'aaaaaa-bbbbbb-cccccc-dddddd'),
        basic(owner.user.email, password),
        basic(someone.user.email, password),
      ]) {
        const answer = await t.app.inject({
          method: 'PROPFIND' as 'GET',
          url: '/dav/files/',
          headers: { depth: '0', ...(auth ? { authorization: auth } : {}) },
        });
        expect(answer.statusCode).toBe(401);
        expect(answer.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
      }
      expect((await dav(someone.auth, 'PROPFIND', '/dav/files/', undefined, { depth: '0' })).statusCode).toBe(
        207,
      );
    });

    it('stores a PUT the web lists at once, serves it back with ranges, and overwrites it in place', async () => {
      const bytes = randomBytes(200_000);
      const before = await owner.agent.get('/api/browse/folders/all');
      const put = await dav(owner.auth, 'PUT', '/dav/files/report.bin', bytes);
      expect(put.statusCode).toBe(201);
      // The web's listing changes with the write: the listing version moved, so its ETag did too.
      const after = await owner.agent.get('/api/browse/folders/all', {
        headers: { 'if-none-match': before.headers.etag as string },
      });
      expect(after.statusCode).toBe(200);
      const listed = ItemList.parse(after.json()).data.find((i) => i.attributes.name === 'report.bin');
      expect(listed?.attributes.filesize).toBe(200_000);

      const got = await dav(owner.auth, 'GET', '/dav/files/report.bin');
      expect(got.rawPayload.equals(bytes)).toBe(true);
      expect(got.headers.etag).toBe(put.headers.etag);
      expect(
        (
          await dav(owner.auth, 'GET', '/dav/files/report.bin', undefined, {
            'if-none-match': put.headers.etag as string,
          })
        ).statusCode,
      ).toBe(304);
      const part = await dav(owner.auth, 'GET', '/dav/files/report.bin', undefined, { range: 'bytes=10-19' });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);

      const replacement = randomBytes(1000);
      const again = await dav(owner.auth, 'PUT', '/dav/files/report.bin', replacement);
      expect(again.statusCode).toBe(204);
      expect(again.headers.etag).not.toBe(put.headers.etag);
      const same = (await rootListing(owner.agent)).data.filter((i) => i.attributes.name === 'report.bin');
      expect(same.map((i) => i.id)).toEqual([listed!.id]);
      expect(same[0]!.attributes.filesize).toBe(1000);
      expect((await owner.agent.get(`/file/${listed!.id}`)).rawPayload.equals(replacement)).toBe(true);
    });

    it('writes a PUT of more than one chunk, sent without a length, whole', async () => {
      const chunk = (await t.deps.settings.all()).chunk_size;
      const bytes = randomBytes(chunk * 2 + 123);
      const put = await dav(owner.auth, 'PUT', '/dav/files/large.bin', bytes, {
        'transfer-encoding': 'chunked',
      });
      expect(put.statusCode).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/large.bin')).rawPayload.equals(bytes)).toBe(true);
      expect((await dav(owner.auth, 'PUT', '/dav/files/empty.txt', '')).statusCode).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/empty.txt')).rawPayload.length).toBe(0);
    });

    it('refuses a PUT past the quota with 507 and stores nothing, with or without a length', async () => {
      const small = await person(50_000);
      const before = await snapshot();
      expect((await dav(small.auth, 'PUT', '/dav/files/big.bin', randomBytes(60_000))).statusCode).toBe(507);
      expect(
        (
          await dav(small.auth, 'PUT', '/dav/files/big.bin', randomBytes(60_000), {
            'transfer-encoding': 'chunked',
          })
        ).statusCode,
      ).toBe(507);
      expect(await snapshot()).toEqual(before);
      expect((await dav(small.auth, 'PUT', '/dav/files/fits.bin', randomBytes(40_000))).statusCode).toBe(201);
    });

    it('applies the blacklist to a PUT and stores nothing', async () => {
      const before = await snapshot();
      expect((await dav(owner.auth, 'PUT', '/dav/files/setup.exe', randomBytes(100))).statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('applies the blacklist to the name a MOVE or a COPY gives a file, changing nothing', async () => {
      expect((await dav(owner.auth, 'PUT', '/dav/files/notes.txt', 'plain')).statusCode).toBe(201);
      const before = await snapshot();
      for (const method of ['MOVE', 'COPY'] as const)
        expect(
          (
            await dav(owner.auth, method, '/dav/files/notes.txt', undefined, {
              destination: 'http://localhost:80/dav/files/notes.exe',
            })
          ).statusCode,
          method,
        ).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('lists a folder at depth 1 with the properties clients read, and refuses depth infinity', async () => {
      expect((await dav(owner.auth, 'MKCOL', '/dav/files/Docs')).statusCode).toBe(201);
      expect((await dav(owner.auth, 'PUT', '/dav/files/Docs/a%20b.txt', 'hello')).statusCode).toBe(201);
      const listing = await dav(owner.auth, 'PROPFIND', '/dav/files/Docs/', undefined, { depth: '1' });
      expect(listing.statusCode).toBe(207);
      expect(listing.body).toContain('<D:href>/dav/files/Docs/a%20b.txt</D:href>');
      expect(listing.body).toContain('<D:getcontentlength>5</D:getcontentlength>');
      expect(listing.body).toContain('<D:getcontenttype>text/plain</D:getcontenttype>');
      expect(listing.body).toMatch(/<D:resourcetype><D:collection\/><\/D:resourcetype>/);
      const quota = await dav(
        owner.auth,
        'PROPFIND',
        '/dav/files/',
        '<propfind xmlns="DAV:"><prop><quota-used-bytes/><quota-available-bytes/></prop></propfind>',
        { depth: '0' },
      );
      expect(quota.body).toMatch(/<D:quota-used-bytes>\d+<\/D:quota-used-bytes>/);
      const infinite = await dav(owner.auth, 'PROPFIND', '/dav/files/', undefined, { depth: 'infinity' });
      expect(infinite.statusCode).toBe(403);
      expect(infinite.body).toContain('propfind-finite-depth');
    });

    it('makes folders only under one that exists, and takes no MKCOL body', async () => {
      expect((await dav(owner.auth, 'MKCOL', '/dav/files/missing/child')).statusCode).toBe(409);
      expect(
        (await dav(owner.auth, 'MKCOL', '/dav/files/withbody', '<x/>', { 'content-type': 'application/xml' }))
          .statusCode,
      ).toBe(415);
      expect((await dav(owner.auth, 'MKCOL', '/dav/files/Docs')).statusCode).toBe(405);
    });

    it('makes one folder of MKCOLs sent at once, and keeps every file put into it right after', async () => {
      // rclone's way: each transfer makes the file's folder, then puts the file into it.
      const answers = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const made = await dav(owner.auth, 'MKCOL', '/dav/files/Together/');
          const put = await dav(owner.auth, 'PUT', `/dav/files/Together/part-${i}.txt`, `part ${i}`);
          return [made.statusCode, put.statusCode];
        }),
      );
      expect(answers.map(([made]) => made).sort()).toEqual([201, 405, 405, 405, 405, 405, 405, 405]);
      expect(answers.every(([, put]) => put === 201)).toBe(true);
      const folders = (await rootListing(owner.agent)).data.filter((i) => i.attributes.name === 'Together');
      expect(folders).toHaveLength(1);
      const inside = ItemList.parse((await owner.agent.get(`/api/browse/folders/${folders[0]!.id}`)).json());
      expect(inside.data.map((i) => i.attributes.name).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `part-${i}.txt`),
      );
    });

    it('deletes to the trash, where the web can restore it', async () => {
      expect((await dav(owner.auth, 'PUT', '/dav/files/old.txt', 'old')).statusCode).toBe(201);
      expect((await dav(owner.auth, 'DELETE', '/dav/files/old.txt')).statusCode).toBe(204);
      expect((await dav(owner.auth, 'GET', '/dav/files/old.txt')).statusCode).toBe(404);
      const trash = ItemList.parse((await owner.agent.get('/api/browse/trash/all')).json());
      expect(trash.data.map((i) => i.attributes.name)).toContain('old.txt');
    });

    it('keeps dead properties with the item through a move', async () => {
      expect((await dav(owner.auth, 'PUT', '/dav/files/props.txt', 'p')).statusCode).toBe(201);
      const patch = await dav(
        owner.auth,
        'PROPPATCH',
        '/dav/files/props.txt',
        '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop><Z:colour>teal</Z:colour></D:prop></D:set></D:propertyupdate>',
      );
      expect(patch.statusCode).toBe(207);
      expect(patch.body).toContain('HTTP/1.1 200 OK');
      const moved = await dav(owner.auth, 'MOVE', '/dav/files/props.txt', undefined, {
        destination: 'http://localhost:80/dav/files/Docs/moved.txt',
        host: 'localhost:80',
      });
      expect(moved.statusCode).toBe(201);
      const read = await dav(
        owner.auth,
        'PROPFIND',
        '/dav/files/Docs/moved.txt',
        '<propfind xmlns="DAV:"><prop><colour xmlns="urn:example"/></prop></propfind>',
        { depth: '0' },
      );
      expect(read.body).toMatch(/<p0:colour xmlns:p0="urn:example">teal<\/p0:colour>/);
    });

    it('leaves no copied bytes behind when its process is killed after storing them, before filing them', async () => {
      const someone = await person();
      const text = Buffer.from('copied, then killed\n'.repeat(200));
      expect((await dav(someone.auth, 'PUT', '/dav/files/killed.txt', text)).statusCode).toBe(201);
      // The process dies as the copy is being filed.
      const killed = await killedWhileFiling(t, {
        counts: (_, options) => !!options?.contentType?.startsWith('text/'),
        failFiling: true,
      });
      try {
        const copied = await dav(someone.auth, 'COPY', '/dav/files/killed.txt', undefined, {
          destination: 'http://localhost:80/dav/files/killed-copy.txt',
          host: 'localhost:80',
        });
        expect(copied.statusCode).toBe(500);
      } finally {
        killed.restore();
      }
      expect(killed.written.length).toBeGreaterThan(0);
      expect(await killed.leftAfterSweep()).toEqual([]);
    });

    it('gives a COPY of an image thumbnails of its own, as an upload gets', async () => {
      const photo = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#3c3' } })
        .jpeg()
        .toBuffer();
      expect((await dav(owner.auth, 'PUT', '/dav/files/photo.jpg', photo)).statusCode).toBe(201);
      const copied = await dav(owner.auth, 'COPY', '/dav/files/photo.jpg', undefined, {
        destination: 'http://localhost:80/dav/files/photo-copy.jpg',
        host: 'localhost:80',
      });
      expect(copied.statusCode).toBe(201);
      const worker = t.deps.jobs.startWorker({ definitions: filesJobDefinitions, services: t.deps });
      try {
        await vi.waitFor(
          async () => {
            const listed = ItemList.parse((await owner.agent.get('/api/browse/latest')).json());
            const copy = listed.data.find((item) => item.attributes.name === 'photo-copy.jpg');
            expect(copy?.attributes.thumbnail).not.toBeNull();
          },
          { timeout: 30_000, interval: 200 },
        );
      } finally {
        await worker.close();
      }
    });

    describe('team folders', () => {
      let team: string;
      const member = async (permission: 'can_edit' | 'can_view') => {
        const someone = await person();
        await t.deps.database.db
          .insertInto('team_members')
          .values({
            folder_id: team,
            user_id: someone.user.id,
            permission,
            created_at: new Date().toISOString(),
          })
          .execute();
        return someone;
      };

      beforeAll(async () => {
        const created = await owner.agent.post('/api/teams/folders', { name: 'Studio', invitations: [] });
        expect(created.statusCode, created.body).toBe(201);
        team = created.json().data.id;
        await uploaded(owner.agent, Buffer.from('brief'), { name: 'brief.txt', parentId: team });
      });

      it('shows a member the team folder under /dav/shared/ with what their permission allows, and nothing else of the owner', async () => {
        const viewer = await member('can_view');
        const editor = await member('can_edit');
        const shared = await dav(viewer.auth, 'PROPFIND', '/dav/shared/', undefined, { depth: '1' });
        expect(shared.body).toContain('<D:href>/dav/shared/Studio/</D:href>');
        expect((await dav(viewer.auth, 'GET', '/dav/shared/Studio/brief.txt')).body).toBe('brief');
        expect((await dav(viewer.auth, 'PUT', '/dav/shared/Studio/note.txt', 'no')).statusCode).toBe(403);
        expect((await dav(viewer.auth, 'DELETE', '/dav/shared/Studio/brief.txt')).statusCode).toBe(403);
        // Nor move it out, onto a file of their own: refused before anything is copied or replaced.
        const own = await dav(viewer.auth, 'PUT', '/dav/files/brief.txt', 'mine');
        expect(own.statusCode).toBe(201);
        const moved = await dav(viewer.auth, 'MOVE', '/dav/shared/Studio/brief.txt', undefined, {
          destination: '/dav/files/brief.txt',
          overwrite: 'T',
        });
        expect(moved.statusCode).toBe(403);
        expect((await dav(viewer.auth, 'GET', '/dav/files/brief.txt')).body).toBe('mine');
        expect((await viewer.agent.get('/api/browse/trash/all')).json().data).toEqual([]);
        const mine = await dav(viewer.auth, 'PROPFIND', '/dav/files/', undefined, { depth: '1' });
        expect(mine.body).not.toContain('Studio');
        expect(mine.body).not.toContain('report.bin');

        expect((await dav(editor.auth, 'PUT', '/dav/shared/Studio/note.txt', 'yes')).statusCode).toBe(201);
        expect((await dav(owner.auth, 'GET', '/dav/files/Studio/note.txt')).body).toBe('yes');
        // The member may not remove or rename the team folder itself, nor set its properties.
        expect((await dav(editor.auth, 'DELETE', '/dav/shared/Studio/')).statusCode).toBe(403);
        const patched = await dav(
          editor.auth,
          'PROPPATCH',
          '/dav/shared/Studio/',
          '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop><Z:colour>teal</Z:colour></D:prop></D:set></D:propertyupdate>',
        );
        expect(patched.statusCode).toBe(207);
        expect(patched.body).toContain('HTTP/1.1 403 Forbidden');
        const kept = t.deps.database.db.selectFrom('dav_properties').selectAll().where('item_id', '=', team);
        expect(await kept.execute()).toEqual([]);
        // Nor lock it, which would keep the owner and every other member out of it.
        const lockBody =
          '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
        const locked = await dav(editor.auth, 'LOCK', '/dav/shared/Studio/', lockBody, { depth: 'infinity' });
        expect(locked.statusCode).toBe(403);
        expect((await dav(owner.auth, 'PUT', '/dav/files/Studio/after.txt', 'owner')).statusCode).toBe(201);
        // A folder inside it is theirs to lock as any editor's.
        const inner = await dav(editor.auth, 'MKCOL', '/dav/shared/Studio/Drafts/');
        expect(inner.statusCode).toBe(201);
        expect((await dav(editor.auth, 'LOCK', '/dav/shared/Studio/Drafts/', lockBody)).statusCode).toBe(200);
      });

      it("shows a member the team folder's bytes as its quota, never the owner's whole account", async () => {
        // The owner keeps far more outside the team folder than in it.
        expect((await dav(owner.auth, 'PUT', '/dav/files/private.bin', 'p'.repeat(5000))).statusCode).toBe(
          201,
        );
        const quotaProps =
          '<D:propfind xmlns:D="DAV:" xmlns:oc="http://owncloud.org/ns"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/><oc:size/></D:prop></D:propfind>';
        const read = async (auth: string, url: string) => {
          const body = (await dav(auth, 'PROPFIND', url, quotaProps, { depth: '0' })).body;
          const value = (name: string) => new RegExp(`<[^>]*${name}>(\\d+)<`).exec(body)?.[1];
          return {
            used: value('quota-used-bytes'),
            available: value('quota-available-bytes'),
            size: value('size'),
          };
        };
        const asOwner = await read(owner.auth, '/dav/files/Studio/');
        const whole = await read(owner.auth, '/dav/files/');
        expect(Number(whole.used)).toBeGreaterThan(5000);
        const viewer = await member('can_view');
        const editor = await member('can_edit');
        expect(await read(viewer.auth, '/dav/shared/Studio/')).toEqual({
          used: asOwner.size,
          available: '0',
          size: asOwner.size,
        });
        expect(await read(editor.auth, '/dav/shared/Studio/')).toEqual({
          used: asOwner.size,
          available: whole.available,
          size: asOwner.size,
        });
      });

      it("copies and moves nothing out of the team folder while the owner's account may not download", async () => {
        const editor = await member('can_edit');
        // Restricted as metered billing leaves an account with an unpaid period: nothing may leave it.
        const undo = await restrictAsUnpaid(t, owner.user.id);
        try {
          expect((await dav(editor.auth, 'GET', '/dav/shared/Studio/brief.txt')).statusCode).toBe(403);
          for (const method of ['COPY', 'MOVE'] as const) {
            const answer = await dav(editor.auth, method, '/dav/shared/Studio/brief.txt', undefined, {
              destination: '/dav/files/brief.txt',
            });
            expect(answer.statusCode, method).toBe(403);
            expect((await dav(editor.auth, 'GET', '/dav/files/brief.txt')).statusCode).toBe(404);
          }
          // The file stays where it was (the owner may not download it either meanwhile).
          const kept = await dav(owner.auth, 'PROPFIND', '/dav/files/Studio/brief.txt', undefined, {
            depth: '0',
          });
          expect(kept.statusCode).toBe(207);
        } finally {
          await undo();
        }
      });

      it('keeps a team folder under its name when the member joins another of the same name', async () => {
        const editor = await member('can_edit');
        expect((await dav(editor.auth, 'PUT', '/dav/shared/Studio/mine.txt', 'first team')).statusCode).toBe(
          201,
        );
        // Other owners' team folders named alike, each joined later (their ids fall either side of the first's).
        for (let i = 0; i < 8; i++) {
          const other = await person();
          const made = await other.agent.post('/api/teams/folders', { name: 'Studio', invitations: [] });
          await t.deps.database.db
            .insertInto('team_members')
            .values({
              folder_id: made.json().data.id,
              user_id: editor.user.id,
              permission: 'can_edit',
              created_at: new Date(Date.now() + (i + 1) * 1000).toISOString(),
            })
            .execute();
        }
        expect((await dav(editor.auth, 'GET', '/dav/shared/Studio/mine.txt')).body).toBe('first team');
        expect((await dav(editor.auth, 'GET', '/dav/shared/Studio (9)/')).statusCode).not.toBe(404);
      });

      it('lets a lock go with the file a web rename, move or delete took from under it', async () => {
        const editor = await member('can_edit');
        const lockBody =
          '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>';
        for (const [name, change] of [
          [
            'renamed.txt',
            (id: string) =>
              owner.agent.post(`/api/rename/${id}`, {
                name: 'elsewhere.txt',
                type: 'file',
                _method: 'patch',
              }),
          ],
          [
            'removed.txt',
            (id: string) =>
              owner.agent.post('/api/remove', { items: [{ id, type: 'file', force_delete: false }] }),
          ],
        ] as const) {
          expect((await dav(editor.auth, 'PUT', `/dav/shared/Studio/${name}`, 'draft')).statusCode).toBe(201);
          const lock = await dav(editor.auth, 'LOCK', `/dav/shared/Studio/${name}`, lockBody, {
            timeout: 'Second-86400',
          });
          expect(lock.statusCode).toBe(200);
          const listing = ItemList.parse((await owner.agent.get(`/api/browse/folders/${team}`)).json());
          const id = listing.data.find((item) => item.attributes.name === name)!.id;
          expect((await change(id)).statusCode).toBeLessThan(300);
          // The name is free: the owner writes a new file there, no lock in the way.
          expect((await dav(owner.auth, 'PUT', `/dav/files/Studio/${name}`, 'new')).statusCode, name).toBe(
            201,
          );
        }
      });

      it("changes the team folder's ETag with the member's permission, so a sync client reads what it may do again", async () => {
        const viewer = await member('can_view');
        const propfind = async () => {
          const answer = await dav(viewer.auth, 'PROPFIND', '/dav/shared/Studio/', undefined, { depth: '0' });
          return /<D:getetag>([^<]*)<\/D:getetag>/.exec(answer.body)?.[1];
        };
        const asViewer = await propfind();
        expect(asViewer).toBeTruthy();
        const promoted = await owner.agent.post(`/api/teams/folders/${team}`, {
          _method: 'patch',
          members: [{ id: viewer.user.id, permission: 'can_edit' }],
        });
        expect(promoted.statusCode, promoted.body).toBe(200);
        expect(await propfind()).not.toBe(asViewer);
      });

      it('ends the locks of an editor made a viewer, who may not refresh them either', async () => {
        const editor = await member('can_edit');
        const lockBody =
          '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>';
        expect((await dav(editor.auth, 'PUT', '/dav/shared/Studio/plan.txt', 'v1')).statusCode).toBe(201);
        const lock = await dav(editor.auth, 'LOCK', '/dav/shared/Studio/plan.txt', lockBody, {
          timeout: 'Second-3600',
        });
        expect(lock.statusCode).toBe(200);
        const token = lock.headers['lock-token'] as string;
        expect((await dav(owner.auth, 'PUT', '/dav/files/Studio/plan.txt', 'owner')).statusCode).toBe(423);

        const demoted = await owner.agent.patch(`/api/teams/folders/${team}`, {
          members: [{ id: editor.user.id, permission: 'can_view' }],
        });
        expect(demoted.statusCode, demoted.body).toBe(200);
        const refresh = await dav(editor.auth, 'LOCK', '/dav/shared/Studio/plan.txt', undefined, {
          if: `(${token})`,
          timeout: 'Second-3600',
        });
        expect(refresh.statusCode).toBe(403);
        expect((await dav(owner.auth, 'PUT', '/dav/files/Studio/plan.txt', 'owner')).statusCode).toBe(204);
      });

      it('shows a stranger no team folder of others', async () => {
        const stranger = await person();
        expect(
          (await dav(stranger.auth, 'PROPFIND', '/dav/shared/Studio/', undefined, { depth: '0' })).statusCode,
        ).toBe(404);
        expect((await dav(stranger.auth, 'GET', '/dav/shared/Studio/brief.txt')).statusCode).toBe(404);
      });
    });

    it('refuses a write whose If-Match or If-None-Match the file fails (412), so a sync client keeps both edits', async () => {
      const first = await dav(owner.auth, 'PUT', '/dav/files/edited.txt', 'mine');
      expect(first.statusCode).toBe(201);
      const seen = first.headers.etag as string;
      // Another client changes the file; then the first sends its edit of the version it saw.
      const other = await dav(owner.auth, 'PUT', '/dav/files/edited.txt', 'theirs');
      expect(other.statusCode).toBe(204);
      const stale = await dav(owner.auth, 'PUT', '/dav/files/edited.txt', 'mine, edited', {
        'if-match': seen,
      });
      expect(stale.statusCode).toBe(412);
      expect((await dav(owner.auth, 'GET', '/dav/files/edited.txt')).body).toBe('theirs');
      expect(
        (await dav(owner.auth, 'DELETE', '/dav/files/edited.txt', undefined, { 'if-match': seen }))
          .statusCode,
      ).toBe(412);
      // With the tag it has now, or `*`, the edit goes in; `If-None-Match: *` only makes a new file.
      const current = other.headers.etag as string;
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/edited.txt', 'merged', { 'if-match': current })).statusCode,
      ).toBe(204);
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/edited.txt', 'again', { 'if-none-match': '*' })).statusCode,
      ).toBe(412);
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/fresh.txt', 'new', { 'if-match': '*' })).statusCode,
      ).toBe(412);
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/fresh.txt', 'new', { 'if-none-match': '*' })).statusCode,
      ).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/edited.txt')).body).toBe('merged');
    });

    it('holds every write to its If-Match and If-None-Match, a folder by the ETag PROPFIND shows', async () => {
      expect((await dav(owner.auth, 'PUT', '/dav/files/tagged.txt', 'v1')).statusCode).toBe(201);
      expect((await dav(owner.auth, 'MKCOL', '/dav/files/Tagged/')).statusCode).toBe(201);
      const wrong = { 'if-match': '"not-its-tag"' };
      const lockinfo =
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
      const patch =
        '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
      for (const [method, url, body, headers] of [
        ['COPY', '/dav/files/tagged.txt', undefined, { destination: '/dav/files/copied.txt', ...wrong }],
        ['MOVE', '/dav/files/Tagged/', undefined, { destination: '/dav/files/Moved/', ...wrong }],
        ['PROPPATCH', '/dav/files/tagged.txt', patch, wrong],
        ['LOCK', '/dav/files/tagged.txt', lockinfo, wrong],
        ['MKCOL', '/dav/files/Made/', undefined, { 'if-match': '*' }],
        ['DELETE', '/dav/files/Tagged/', undefined, wrong],
      ] as const) {
        const answer = await dav(owner.auth, method, url, body, headers);
        expect(answer.statusCode, `${method} ${url}`).toBe(412);
      }
      const listing = await dav(owner.auth, 'PROPFIND', '/dav/files/', undefined, { depth: '1' });
      expect(listing.body).not.toMatch(/copied\.txt|Moved|Made/);
      expect(listing.body).not.toContain('urn:z');
      // With the tag PROPFIND gave the folder, its delete goes ahead.
      const folder = await dav(owner.auth, 'PROPFIND', '/dav/files/Tagged/', undefined, { depth: '0' });
      const etag = /<D:getetag>([^<]*)<\/D:getetag>/
        .exec(folder.body)![1]!
        .replaceAll('&quot;', '"')
        .replaceAll('&#34;', '"');
      const deleted = await dav(owner.auth, 'DELETE', '/dav/files/Tagged/', undefined, { 'if-match': etag });
      expect(deleted.statusCode).toBe(204);
    });

    it('refuses a conditional write whose file changed while its body was on its way (412), keeping the other edit', async () => {
      const first = await dav(owner.auth, 'PUT', '/dav/files/raced.txt', 'v1');
      const etag = first.headers.etag as string;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let reading!: () => void;
      // The body is read only once the request's conditions were checked.
      const beingRead = new Promise<void>((resolve) => (reading = resolve));
      async function* slowBody() {
        yield Buffer.from('from A, ');
        reading();
        await held;
        yield Buffer.from('sent slowly');
      }
      const slow = t.app.inject({
        method: 'PUT',
        url: '/dav/files/raced.txt',
        payload: Readable.from(slowBody()),
        headers: { authorization: owner.auth, 'if-match': etag },
      });
      // B's edit lands while A's body is still arriving.
      await beingRead;
      expect((await dav(owner.auth, 'PUT', '/dav/files/raced.txt', 'from B')).statusCode).toBe(204);
      release();
      expect((await slow).statusCode).toBe(412);
      expect((await dav(owner.auth, 'GET', '/dav/files/raced.txt')).body).toBe('from B');
    });

    it('takes a name freed under a forgotten lock by a new LOCK: a file of its own, locked at depth 0', async () => {
      const exclusive =
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>';
      expect((await dav(owner.auth, 'PUT', '/dav/files/report.txt', 'v1')).statusCode).toBe(201);
      // A client locks it and goes away; the file is deleted in the web app meanwhile.
      const first = await dav(owner.auth, 'LOCK', '/dav/files/report.txt', exclusive, {
        timeout: 'Second-86400',
      });
      expect(first.statusCode).toBe(200);
      const listing = ItemList.parse((await owner.agent.get('/api/browse/folders/all')).json());
      const id = listing.data.find((item) => item.attributes.name === 'report.txt')!.id;
      const removed = await owner.agent.post('/api/remove', {
        items: [{ id, type: 'file', force_delete: false }],
      });
      expect(removed.statusCode).toBe(204);

      const again = await dav(owner.auth, 'LOCK', '/dav/files/report.txt', exclusive, { depth: 'infinity' });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.body).toContain('<D:depth>0</D:depth>');
      const token = /^<(.+)>$/.exec(again.headers['lock-token'] as string)![1]!;
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/report.txt', 'v2', { if: `(<${token}>)` })).statusCode,
      ).toBe(204);
      // A lock in the way refuses the LOCK before anything is made.
      const other = await dav(owner.auth, 'LOCK', '/dav/files/report.txt', exclusive);
      expect(other.statusCode).toBe(423);
      expect((await dav(owner.auth, 'GET', '/dav/files/report.txt')).body).toBe('v2');
    });

    it('refuses a write to a locked file without its token (423) and takes it with the token', async () => {
      expect((await dav(owner.auth, 'PUT', '/dav/files/locked.txt', 'v1')).statusCode).toBe(201);
      const lock = await dav(
        owner.auth,
        'LOCK',
        '/dav/files/locked.txt',
        '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>me</D:owner></D:lockinfo>',
        { timeout: 'Second-600' },
      );
      expect(lock.statusCode).toBe(200);
      const token = /^<(.+)>$/.exec(lock.headers['lock-token'] as string)![1]!;
      expect((await dav(owner.auth, 'PUT', '/dav/files/locked.txt', 'v2')).statusCode).toBe(423);
      expect(
        (await dav(owner.auth, 'PUT', '/dav/files/locked.txt', 'v2', { if: `(<${token}>)` })).statusCode,
      ).toBe(204);
      // An untagged If names the request's resource (RFC 4918 10.4.1): the lock holder moves its file.
      const moved = await dav(owner.auth, 'MOVE', '/dav/files/locked.txt', undefined, {
        destination: '/dav/files/unlocked.txt',
        if: `(<${token}>)`,
      });
      expect(moved.statusCode, moved.body).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/unlocked.txt')).body).toBe('v2');
    });
  });
}
