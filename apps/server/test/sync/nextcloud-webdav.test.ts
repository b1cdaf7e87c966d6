import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../support/factories';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from '../files/files-harness';
import { addTeamMember, basic, davCalls, type DavPerson } from '../webdav/webdav-harness';

for (const [database, storage] of filesMatrix) {
  describe(`Nextcloud's WebDAV addresses [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: DavPerson;
    const person = () => davCalls(t).person();
    const dav = (...call: Parameters<ReturnType<typeof davCalls>['dav']>) => davCalls(t).dav(...call);
    const PROPS =
      '<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:prop>' +
      '<d:getetag/><d:getlastmodified/><oc:fileid/><oc:id/><oc:permissions/><oc:size/><oc:checksums/>' +
      '<oc:favorite/><oc:share-types/><nc:has-preview/><d:quota-used-bytes/></d:prop></d:propfind>';
    /** The properties of each resource of a PROPFIND, by href: `getetag`, `oc:size`… as text. */
    const properties = async (auth: string, url: string, depth = '1') => {
      const answer = await dav(auth, 'PROPFIND', url, PROPS, { depth });
      expect(answer.statusCode, answer.body).toBe(207);
      const found = new Map<string, Record<string, string>>();
      for (const [, response] of answer.body.matchAll(/<D:response>(.*?)<\/D:response>/g)) {
        const href = /<D:href>([^<]*)<\/D:href>/.exec(response!)![1]!;
        const ok = /<D:propstat><D:prop>(.*?)<\/D:prop><D:status>HTTP\/1.1 200/.exec(response!)?.[1] ?? '';
        const values: Record<string, string> = {};
        for (const [, name, value] of ok.matchAll(/<((?:D|oc|nc):[\w-]+)>(.*?)<\/\1>/g))
          values[name!.replace(/^D:/, '')] = value!;
        found.set(href, values);
      }
      return found;
    };
    const hrefs = (body: string) => [...body.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => m[1]);

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      owner = await person();
      expect((await dav(owner.auth, 'MKCOL', '/dav/files/Photos')).statusCode).toBe(201);
      expect((await dav(owner.auth, 'PUT', '/dav/files/Photos/a.txt', 'alpha')).statusCode).toBe(201);
    });
    afterAll(() => t.close());

    it('serves My files at /remote.php/dav/files/{user}/ by e-mail or id, and at /remote.php/webdav/', async () => {
      const { email, id } = owner.user;
      for (const [base, href] of [
        [`/remote.php/dav/files/${email}`, `/remote.php/dav/files/${email}`],
        [`/remote.php/dav/files/${encodeURIComponent(email)}`, `/remote.php/dav/files/${email}`],
        [`/remote.php/dav/files/${email.toUpperCase()}`, `/remote.php/dav/files/${email.toUpperCase()}`],
        [`/remote.php/dav/files/${id}`, `/remote.php/dav/files/${id}`],
        ['/remote.php/webdav', '/remote.php/webdav'],
      ]) {
        const listing = await dav(owner.auth, 'PROPFIND', `${base}/`, undefined, { depth: '1' });
        expect(listing.statusCode, base).toBe(207);
        expect(hrefs(listing.body)).toEqual([`${href}/`, `${href}/Photos/`]);
        const file = await dav(owner.auth, 'GET', `${base}/Photos/a.txt`);
        expect(file.body).toBe('alpha');
      }
    });

    it('writes through the new addresses into the same tree, a MOVE naming a destination under either', async () => {
      const base = `/remote.php/dav/files/${owner.user.email}`;
      expect((await dav(owner.auth, 'PUT', `${base}/Photos/b.txt`, 'beta')).statusCode).toBe(201);
      const moved = await dav(owner.auth, 'MOVE', `${base}/Photos/b.txt`, undefined, {
        destination: `http://localhost:80/remote.php/webdav/b-moved.txt`,
        host: 'localhost:80',
      });
      expect(moved.statusCode).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/b-moved.txt')).body).toBe('beta');
      expect((await dav(owner.auth, 'GET', `${base}/Photos/b.txt`)).statusCode).toBe(404);
    });

    it('answers 404 for another user in the path, and signs in only with an app password', async () => {
      const other = await person();
      for (const user of [other.user.email, other.user.id, 'nobody@example.com'])
        for (const url of [`/remote.php/dav/files/${user}/`, `/remote.php/dav/files/${user}/Photos/a.txt`]) {
          const answer = await dav(owner.auth, 'PROPFIND', url, undefined, { depth: '0' });
          expect(answer.statusCode, url).toBe(404);
        }
      // A destination under someone else's address is as unknown as the address itself.
      const crossing = await dav(owner.auth, 'COPY', `/remote.php/webdav/b-moved.txt`, undefined, {
        destination: `/remote.php/dav/files/${other.user.email}/stolen.txt`,
      });
      expect(crossing.statusCode).toBe(404);
      expect(
        (await dav(other.auth, 'PROPFIND', '/remote.php/webdav/', undefined, { depth: '1' })).body,
      ).not.toContain('Photos');

      const { password } = await t.deps.appPasswords.create(other.user.id, { name: 'Revoked' });
      const revoked = (await t.deps.appPasswords.list(other.user.id)).data.find(
        (p) => p.attributes.name === 'Revoked',
      );
      await t.deps.appPasswords.revoke(other.user.id, revoked!.id);
      for (const auth of [basic(other.user.email, DEFAULT_PASSWORD), basic(other.user.email, password)]) {
        const answer = await dav(auth, 'PROPFIND', `/remote.php/dav/files/${other.user.email}/`, undefined, {
          depth: '0',
        });
        expect(answer.statusCode).toBe(401);
      }
    });

    it("shows a member the owner's team folder among their own files, with what their permission allows", async () => {
      const created = await owner.agent.post('/api/teams/folders', { name: 'Studio', invitations: [] });
      const team = created.json().data.id as string;
      await uploaded(owner.agent, Buffer.from('brief'), { name: 'brief.txt', parentId: team });
      const viewer = await person();
      const editor = await person();
      // The editor had a folder of that name before: the team folder shows as `Studio (2)`.
      expect((await dav(editor.auth, 'MKCOL', '/remote.php/webdav/Studio')).statusCode).toBe(201);
      for (const [someone, permission] of [
        [viewer, 'can_view'],
        [editor, 'can_edit'],
      ] as const)
        await addTeamMember(t, team, someone.user.id, permission);

      const viewerRoot = await dav(
        viewer.auth,
        'PROPFIND',
        `/remote.php/dav/files/${viewer.user.id}/`,
        undefined,
        {
          depth: '1',
        },
      );
      expect(hrefs(viewerRoot.body)).toEqual([
        `/remote.php/dav/files/${viewer.user.id}/`,
        `/remote.php/dav/files/${viewer.user.id}/Studio/`,
      ]);
      expect((await dav(viewer.auth, 'GET', '/remote.php/webdav/Studio/brief.txt')).body).toBe('brief');
      expect((await dav(viewer.auth, 'PUT', '/remote.php/webdav/Studio/note.txt', 'no')).statusCode).toBe(
        403,
      );

      const editorRoot = await dav(editor.auth, 'PROPFIND', '/remote.php/webdav/', undefined, { depth: '1' });
      expect(hrefs(editorRoot.body)).toEqual([
        '/remote.php/webdav/',
        '/remote.php/webdav/Studio/',
        '/remote.php/webdav/Studio%20(2)/',
      ]);
      expect(
        (await dav(editor.auth, 'PUT', '/remote.php/webdav/Studio%20(2)/note.txt', 'yes')).statusCode,
      ).toBe(201);
      expect((await dav(owner.auth, 'GET', '/dav/files/Studio/note.txt')).body).toBe('yes');
      expect((await dav(editor.auth, 'GET', '/remote.php/webdav/Studio/note.txt')).statusCode).toBe(404);
      expect((await dav(editor.auth, 'DELETE', '/remote.php/webdav/Studio%20(2)/')).statusCode).toBe(403);
    });

    it('gives the properties sync clients read: ids, permissions, recursive sizes, favourites, links', async () => {
      const base = `/remote.php/dav/files/${owner.user.email}`;
      expect((await dav(owner.auth, 'MKCOL', `${base}/Props`)).statusCode).toBe(201);
      expect((await dav(owner.auth, 'MKCOL', `${base}/Props/deep`)).statusCode).toBe(201);
      const put = await dav(owner.auth, 'PUT', `${base}/Props/deep/one.txt`, '12345');
      const image = await uploaded(
        owner.agent,
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#808080' } })
          .png()
          .toBuffer(),
        {
          name: 'pic.png',
        },
      );
      expect((await owner.agent.post('/api/favourites', { ids: [image.id] })).statusCode).toBeLessThan(300);
      await dav(owner.auth, 'PUT', `${base}/Props/two.txt`, '123');

      const listing = await properties(owner.auth, `${base}/Props/`);
      const folder = listing.get(`${base}/Props/`)!;
      expect(folder['oc:size']).toBe('8');
      expect(folder['oc:permissions']).toBe('RGDNVCK');
      expect(folder.getetag).toMatch(/^&#34;.+&#34;$/);
      const file = listing.get(`${base}/Props/two.txt`)!;
      expect(file['oc:permissions']).toBe('RGDNVW');
      expect(file['oc:size']).toBe('3');
      expect(file['oc:id']).toBe(`${file['oc:fileid']}ocatelier`);
      expect(file['oc:favorite']).toBe('0');
      expect(put.headers['oc-fileid']).toBe(
        (await properties(owner.auth, `${base}/Props/deep/one.txt`, '0')).get(`${base}/Props/deep/one.txt`)![
          'oc:id'
        ],
      );
      const root = await properties(owner.auth, `${base}/`);
      expect(root.get(`${base}/pic.png`)!['oc:favorite']).toBe('1');
      expect(root.get(`${base}/pic.png`)!['nc:has-preview']).toBe('true');
      expect(Number(root.get(`${base}/`)!['oc:size'])).toBeGreaterThanOrEqual(8);
    });

    it("changes a folder's ETag and every ETag above it with any write below, whichever way it is made", async () => {
      const base = `/remote.php/dav/files/${owner.user.email}`;
      for (const path of ['Tree', 'Tree/a', 'Tree/a/b', 'Tree/side'])
        expect((await dav(owner.auth, 'MKCOL', `${base}/${path}`)).statusCode).toBe(201);
      const etags = async () => {
        const at = async (path: string) =>
          (await properties(owner.auth, `${base}/${path}`, '0')).get(`${base}/${path}`)!.getetag!;
        return {
          root: await at(''),
          tree: await at('Tree/'),
          a: await at('Tree/a/'),
          b: await at('Tree/a/b/'),
          side: await at('Tree/side/'),
        };
      };
      const folderId = async (path: string) =>
        (await properties(owner.auth, `${base}/${path}`, '0')).get(`${base}/${path}`)!['oc:fileid']!;
      let deleted = '';
      const changes: [string, () => Promise<unknown>, (keyof Awaited<ReturnType<typeof etags>>)[]][] = [
        [
          'a WebDAV PUT',
          () => dav(owner.auth, 'PUT', `${base}/Tree/a/b/f.txt`, 'one'),
          ['root', 'tree', 'a', 'b'],
        ],
        [
          'a web upload',
          async () =>
            uploaded(owner.agent, Buffer.from('two'), {
              name: 'g.txt',
              parentId: await folderId('Tree/a/b/'),
            }),
          ['root', 'tree', 'a', 'b'],
        ],
        [
          'an overwrite',
          () => dav(owner.auth, 'PUT', `${base}/Tree/a/b/f.txt`, 'ONE'),
          ['root', 'tree', 'a', 'b'],
        ],
        [
          'a rename on the web',
          async () => {
            const id = (await properties(owner.auth, `${base}/Tree/a/b/g.txt`, '0')).get(
              `${base}/Tree/a/b/g.txt`,
            )!['oc:fileid'];
            return owner.agent.patch(`/api/rename/${id}`, { name: 'h.txt', type: 'file' });
          },
          ['root', 'tree', 'a', 'b'],
        ],
        [
          'a move out of b',
          () =>
            dav(owner.auth, 'MOVE', `${base}/Tree/a/b/h.txt`, undefined, {
              destination: `${base}/Tree/side/h.txt`,
            }),
          ['root', 'tree', 'a', 'b', 'side'],
        ],
        [
          'a delete',
          async () => {
            deleted = (await properties(owner.auth, `${base}/Tree/a/b/f.txt`, '0')).get(
              `${base}/Tree/a/b/f.txt`,
            )!['oc:fileid']!;
            return dav(owner.auth, 'DELETE', `${base}/Tree/a/b/f.txt`);
          },
          ['root', 'tree', 'a', 'b'],
        ],
        [
          'a restore from the trash',
          () => owner.agent.post('/api/trash/restore', { items: [{ id: deleted, type: 'file' }] }),
          ['root', 'tree', 'a', 'b'],
        ],
      ];
      for (const [what, change, changed] of changes) {
        const before = await etags();
        await change();
        const after = await etags();
        for (const key of Object.keys(before) as (keyof typeof before)[])
          expect(after[key] !== before[key], `${what}: ${key}`).toBe(changed.includes(key));
      }
    });

    it('keeps the time X-OC-MTime states, verifies OC-Checksum, and refuses a mismatch storing nothing', async () => {
      const base = `/remote.php/dav/files/${owner.user.email}`;
      const bytes = Buffer.from('checked bytes');
      const sha1 = createHash('sha1').update(bytes).digest('hex');
      const put = await dav(owner.auth, 'PUT', `${base}/timed.txt`, bytes, {
        'x-oc-mtime': '1700000000',
        'oc-checksum': `SHA1:${sha1}`,
      });
      expect(put.statusCode).toBe(201);
      expect(put.headers['x-oc-mtime']).toBe('accepted');
      expect(put.headers['oc-etag']).toBe(put.headers.etag);
      const file = (await properties(owner.auth, `${base}/timed.txt`, '0')).get(`${base}/timed.txt`)!;
      expect(file.getlastmodified).toBe(new Date(1_700_000_000_000).toUTCString());
      expect(file['oc:checksums']).toBe(`<oc:checksum>SHA1:${sha1}</oc:checksum>`);

      for (const checksum of [
        `SHA1:${'0'.repeat(40)}`,
        'MD5:00000000000000000000000000000000',
        'ADLER32:1',
      ]) {
        const refused = await dav(owner.auth, 'PUT', `${base}/timed.txt`, Buffer.from('other bytes'), {
          'oc-checksum': checksum,
        });
        expect(refused.statusCode, checksum).toBe(400);
        expect((await dav(owner.auth, 'GET', `${base}/timed.txt`)).body).toBe('checked bytes');
      }
      const md5 = createHash('md5').update('new bytes').digest('hex');
      expect(
        (await dav(owner.auth, 'PUT', `${base}/fresh.txt`, 'x', { 'oc-checksum': `MD5:${md5}` })).statusCode,
      ).toBe(400);
      expect((await dav(owner.auth, 'GET', `${base}/fresh.txt`)).statusCode).toBe(404);
      // Adler-32 of "new bytes", as zlib computes it.
      const adler = await dav(owner.auth, 'PUT', `${base}/fresh.txt`, 'new bytes', {
        'oc-checksum': 'Adler32:11770392',
      });
      expect(adler.statusCode).toBe(201);

      // A copy, and a move into another owner's team folder (made as a copy), keep what the client said.
      const stated = { getlastmodified: file.getlastmodified, 'oc:checksums': file['oc:checksums'] };
      const copied = await dav(owner.auth, 'COPY', `${base}/timed.txt`, undefined, {
        destination: `${base}/timed copy.txt`,
      });
      expect(copied.statusCode).toBe(201);
      const copy = (await properties(owner.auth, `${base}/timed%20copy.txt`, '0')).get(
        `${base}/timed%20copy.txt`,
      )!;
      expect({ getlastmodified: copy.getlastmodified, 'oc:checksums': copy['oc:checksums'] }).toEqual(stated);
      const boss = await person();
      const team = (await boss.agent.post('/api/teams/folders', { name: 'Desk', invitations: [] })).json()
        .data.id as string;
      await addTeamMember(t, team, owner.user.id, 'can_edit');
      const moved = await dav(owner.auth, 'MOVE', `${base}/timed%20copy.txt`, undefined, {
        destination: `${base}/Desk/timed.txt`,
      });
      expect(moved.statusCode, moved.body).toBe(201);
      const there = (await properties(owner.auth, `${base}/Desk/timed.txt`, '0')).get(
        `${base}/Desk/timed.txt`,
      )!;
      expect({ getlastmodified: there.getlastmodified, 'oc:checksums': there['oc:checksums'] }).toEqual(
        stated,
      );

      // A web upload replacing the bytes makes the client's time and checksum stale.
      const folderItems = await properties(owner.auth, `${base}/timed.txt`, '0');
      await uploaded(owner.agent, Buffer.from('web bytes'), {
        name: 'timed.txt',
        conflict: 'replace',
      });
      const replaced = (await properties(owner.auth, `${base}/timed.txt`, '0')).get(`${base}/timed.txt`)!;
      expect(replaced['oc:checksums'] ?? '').toBe('');
      expect(replaced.getlastmodified).not.toBe(folderItems.get(`${base}/timed.txt`)!.getlastmodified);
    });
  });
}
