import { VersionList } from '@atelier/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { DEFAULT_PASSWORD } from '../support/factories';
import { createFilesTestApp, uploaded, type FilesTestApp } from '../files/files-harness';
import { addTeamMember, basic, davCalls, type DavMethod, type DavPerson } from '../webdav/webdav-harness';

/** What Nextcloud's Android and desktop apps ask of a trash listing. */
const TRASH_PROPFIND = `<?xml version="1.0"?>
<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
  <d:prop>
    <nc:trashbin-filename/><nc:trashbin-original-location/><nc:trashbin-deletion-time/>
    <d:getcontentlength/><d:resourcetype/><oc:size/><oc:fileid/><d:getcontenttype/>
  </d:prop>
</d:propfind>`;

const VERSIONS_PROPFIND = `<?xml version="1.0"?>
<d:propfind xmlns:d="DAV:" xmlns:nc="http://nextcloud.org/ns">
  <d:prop><d:getcontentlength/><d:getlastmodified/><d:getcontenttype/><nc:version-author/></d:prop>
</d:propfind>`;

/** The responses of a multistatus, each with its href and the text of each property found. */
function responses(body: string): { href: string; props: Record<string, string> }[] {
  return [...body.matchAll(/<D:response>([\s\S]*?)<\/D:response>/g)].map(([, inner]) => {
    const href = decodeURIComponent(/<D:href>([^<]*)<\/D:href>/.exec(inner!)![1]!);
    const found = /<D:propstat><D:prop>([\s\S]*?)<\/D:prop><D:status>HTTP\/1.1 200/.exec(inner!)?.[1] ?? '';
    const props: Record<string, string> = {};
    for (const [, , name, value] of found.matchAll(/<(\w+:)?([\w-]+)(?: [^>]*)?>([^<]*)<\/\1?\2>/g))
      props[name!] = value!;
    return { href, props };
  });
}

for (const database of databaseKinds) {
  describe(`Nextcloud's trash bin, versions and previews [${database}]`, () => {
    let t: FilesTestApp;
    let owner: DavPerson;

    const person = () => davCalls(t).person();
    // The host a Destination names, as clients send it.
    const dav = (
      auth: string,
      method: DavMethod,
      url: string,
      payload?: string | Buffer,
      headers: Record<string, string> = {},
    ) => davCalls(t).dav(auth, method, url, payload, { host: 'localhost:80', ...headers });
    const idOf = async (ownerId: string, name: string) =>
      (
        await t.deps.database.db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', ownerId)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    const trashOf = (someone: { user: UserRow }) => `/remote.php/dav/trashbin/${someone.user.email}`;
    const versionsOf = (someone: { user: UserRow }) => `/remote.php/dav/versions/${someone.user.email}`;
    const versionsApi = async (agent: TestAgent, fileId: string) =>
      VersionList.parse((await agent.get(`/api/files/${fileId}/versions`)).json()).data;

    beforeAll(async () => {
      t = await createFilesTestApp(database, 'local');
      owner = await person();
    });
    afterAll(() => t.close());

    it('advertises the trash and versions in the capabilities, so the apps show their screens', async () => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/ocs/v2.php/cloud/capabilities?format=json',
        headers: { 'ocs-apirequest': 'true' },
      });
      expect(answer.json().ocs.data.capabilities.files).toMatchObject({ undelete: true, versioning: true });
    });

    describe('trash bin', () => {
      it('lists what was deleted with its name, where it was and when it went, and reads a trashed file and folder', async () => {
        expect((await dav(owner.auth, 'MKCOL', '/dav/files/Docs')).statusCode).toBe(201);
        expect((await dav(owner.auth, 'MKCOL', '/dav/files/Docs/Drafts')).statusCode).toBe(201);
        expect((await dav(owner.auth, 'PUT', '/dav/files/Docs/report.txt', 'report v1')).statusCode).toBe(
          201,
        );
        expect((await dav(owner.auth, 'PUT', '/dav/files/Docs/Drafts/draft.txt', 'draft')).statusCode).toBe(
          201,
        );
        expect((await dav(owner.auth, 'DELETE', '/dav/files/Docs/report.txt')).statusCode).toBe(204);
        expect((await dav(owner.auth, 'DELETE', '/dav/files/Docs/Drafts')).statusCode).toBe(204);
        const report = await idOf(owner.user.id, 'report.txt');
        const drafts = await idOf(owner.user.id, 'Drafts');
        const deletedAt = async (id: string) => {
          const row = await t.deps.database.db
            .selectFrom('items')
            .select('deleted_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          return String(Math.floor(new Date(row.deleted_at!).getTime() / 1000));
        };

        const home = trashOf(owner);
        const listing = await dav(owner.auth, 'PROPFIND', `${home}/trash/`, TRASH_PROPFIND, { depth: '1' });
        expect(listing.statusCode, listing.body).toBe(207);
        const [self, ...entries] = responses(listing.body);
        expect(self!.href).toBe(`${home}/trash/`);
        expect(entries.map((e) => e.href).sort()).toEqual(
          [`${home}/trash/${drafts}/`, `${home}/trash/${report}`].sort(),
        );
        const file = entries.find((e) => e.href.endsWith(report))!.props;
        expect(file).toMatchObject({
          'trashbin-filename': 'report.txt',
          'trashbin-original-location': 'Docs/report.txt',
          'trashbin-deletion-time': await deletedAt(report),
          getcontentlength: '9',
          size: '9',
          fileid: report,
        });
        const folder = entries.find((e) => e.href.endsWith(`${drafts}/`))!.props;
        expect(folder).toMatchObject({
          'trashbin-filename': 'Drafts',
          'trashbin-original-location': 'Docs/Drafts',
          'trashbin-deletion-time': await deletedAt(drafts),
        });
        expect(listing.body).toContain('<D:resourcetype><D:collection/></D:resourcetype>');

        // What a trashed folder held, and a trashed file's bytes.
        const inside = await dav(owner.auth, 'PROPFIND', `${home}/trash/${drafts}/`, TRASH_PROPFIND, {
          depth: '1',
        });
        const draft = await idOf(owner.user.id, 'draft.txt');
        expect(responses(inside.body).map((r) => r.href)).toEqual([
          `${home}/trash/${drafts}/`,
          `${home}/trash/${drafts}/${draft}`,
        ]);
        expect(responses(inside.body)[1]!.props['trashbin-original-location']).toBe('Docs/Drafts/draft.txt');
        expect((await dav(owner.auth, 'GET', `${home}/trash/${drafts}/${draft}`)).body).toBe('draft');
        expect((await dav(owner.auth, 'GET', `${home}/trash/${report}`)).body).toBe('report v1');
        // Only a path down a trashed folder: not an item inside another one, nor one named twice.
        for (const path of [`${report}/${draft}`, `${drafts}/${drafts}`, draft])
          expect((await dav(owner.auth, 'GET', `${home}/trash/${path}`)).statusCode, path).toBe(404);
        // The home holds the two collections, as Nextcloud's does.
        const top = await dav(owner.auth, 'PROPFIND', `${home}/`, undefined, { depth: '1' });
        expect(responses(top.body).map((r) => r.href)).toEqual([
          `${home}/`,
          `${home}/restore/`,
          `${home}/trash/`,
        ]);
      });

      it('restores an entry by MOVE into restore/, where it was, with its versions', async () => {
        expect((await dav(owner.auth, 'PUT', '/dav/files/Docs/kept.txt', 'kept v1')).statusCode).toBe(201);
        expect((await dav(owner.auth, 'PUT', '/dav/files/Docs/kept.txt', 'kept v2')).statusCode).toBe(204);
        const kept = await idOf(owner.user.id, 'kept.txt');
        expect(await versionsApi(owner.agent, kept)).toHaveLength(2);
        expect((await dav(owner.auth, 'DELETE', '/dav/files/Docs/kept.txt')).statusCode).toBe(204);
        const home = trashOf(owner);
        // A COPY would leave it in the trash too: refused, nothing changes.
        const copy = await dav(owner.auth, 'COPY', `${home}/trash/${kept}`, undefined, {
          destination: `http://localhost:80${home}/restore/kept.txt`,
        });
        expect(copy.statusCode).toBe(405);
        const restored = await dav(owner.auth, 'MOVE', `${home}/trash/${kept}`, undefined, {
          destination: `http://localhost:80${home}/restore/kept.txt`,
        });
        expect(restored.statusCode, restored.body).toBe(201);
        expect((await dav(owner.auth, 'GET', '/dav/files/Docs/kept.txt')).body).toBe('kept v2');
        expect(await versionsApi(owner.agent, kept)).toHaveLength(2);
        const listing = await dav(owner.auth, 'PROPFIND', `${home}/trash/`, undefined, { depth: '1' });
        expect(listing.body).not.toContain(kept);
      });

      it('deletes an entry for good, and empties the trash by DELETE of trash/', async () => {
        const home = trashOf(owner);
        const report = await idOf(owner.user.id, 'report.txt');
        const objectsBefore = (await t.storedObjects()).length;
        expect((await dav(owner.auth, 'DELETE', `${home}/trash/${report}`)).statusCode).toBe(204);
        expect(await t.deps.items.findOne(owner.user.id, report)).toBeUndefined();
        expect((await t.storedObjects()).length).toBeLessThan(objectsBefore);
        expect((await dav(owner.auth, 'GET', `${home}/trash/${report}`)).statusCode).toBe(404);
        // The drafts folder is still there, then the whole trash goes.
        const before = responses(
          (await dav(owner.auth, 'PROPFIND', `${home}/trash/`, undefined, { depth: '1' })).body,
        );
        expect(before).toHaveLength(2);
        expect((await dav(owner.auth, 'DELETE', `${home}/trash`)).statusCode).toBe(204);
        const after = responses(
          (await dav(owner.auth, 'PROPFIND', `${home}/trash/`, undefined, { depth: '1' })).body,
        );
        expect(after.map((r) => r.href)).toEqual([`${home}/trash/`]);
        // Live files stay.
        expect((await dav(owner.auth, 'GET', '/dav/files/Docs/kept.txt')).body).toBe('kept v2');
      });

      it("answers 404 for another user's trash, entries and restore, and signs in only with an app password", async () => {
        const other = await person();
        expect((await dav(other.auth, 'PUT', '/dav/files/secret.txt', 'secret')).statusCode).toBe(201);
        expect((await dav(other.auth, 'DELETE', '/dav/files/secret.txt')).statusCode).toBe(204);
        const secret = await idOf(other.user.id, 'secret.txt');
        // The owner names the other's home, or the other's entry below their own.
        for (const url of [
          `${trashOf(other)}/trash/`,
          `${trashOf(other)}/trash/${secret}`,
          `${trashOf(owner)}/trash/${secret}`,
        ])
          expect((await dav(owner.auth, 'PROPFIND', url, undefined, { depth: '0' })).statusCode, url).toBe(
            404,
          );
        expect((await dav(owner.auth, 'DELETE', `${trashOf(owner)}/trash/${secret}`)).statusCode).toBe(404);
        const stolen = await dav(owner.auth, 'MOVE', `${trashOf(owner)}/trash/${secret}`, undefined, {
          destination: `${trashOf(owner)}/restore/secret.txt`,
        });
        expect(stolen.statusCode).toBe(404);
        // Into someone else's restore/: refused before anything is restored.
        const elsewhere = await dav(other.auth, 'MOVE', `${trashOf(other)}/trash/${secret}`, undefined, {
          destination: `${trashOf(owner)}/restore/secret.txt`,
        });
        expect(elsewhere.statusCode).toBe(403);
        // No credentials, the account password, and an app password once revoked.
        const { password: revoked } = await t.deps.appPasswords.create(other.user.id, { name: 'Old phone' });
        const [old] = (await t.deps.appPasswords.list(other.user.id)).data.filter(
          (p) => p.attributes.name === 'Old phone',
        );
        await t.deps.appPasswords.revoke(other.user.id, old!.id);
        for (const auth of [
          undefined,
          basic(other.user.email, DEFAULT_PASSWORD),
          basic(other.user.email, revoked),
        ]) {
          const answer = await t.app.inject({
            method: 'PROPFIND' as 'GET',
            url: `${trashOf(other)}/trash/`,
            headers: auth ? { authorization: auth } : {},
          });
          expect(answer.statusCode).toBe(401);
        }
        expect(
          (await dav(other.auth, 'PROPFIND', `${trashOf(other)}/trash/`, undefined, { depth: '1' })).body,
        ).toContain(secret);
      });
    });

    describe('versions', () => {
      let file: string;

      beforeAll(async () => {
        for (const [i, text] of ['one', 'two two', 'three three three'].entries())
          expect((await dav(owner.auth, 'PUT', '/dav/files/plan.txt', text)).statusCode).toBe(
            i === 0 ? 201 : 204,
          );
        file = await idOf(owner.user.id, 'plan.txt');
      });

      it("lists a file's versions with their size and date, and downloads one (ranges too)", async () => {
        const base = `${versionsOf(owner)}/versions/${file}/`;
        const listing = await dav(owner.auth, 'PROPFIND', base, VERSIONS_PROPFIND, { depth: '1' });
        expect(listing.statusCode, listing.body).toBe(207);
        const [self, ...versions] = responses(listing.body);
        expect(self!.href).toBe(base);
        const api = await versionsApi(owner.agent, file);
        expect(versions.map((v) => v.href)).toEqual(api.map((v) => `${base}${v.id}`));
        expect(versions.map((v) => v.props.getcontentlength)).toEqual(['17', '7', '3']);
        expect(versions[1]!.props.getlastmodified).toBe(
          new Date(api[1]!.attributes.created_at).toUTCString(),
        );
        expect(versions[1]!.props['version-author']).toBe(api[1]!.attributes.author.name);
        const oldest = `${base}${api[2]!.id}`;
        expect((await dav(owner.auth, 'GET', oldest)).body).toBe('one');
        const part = await dav(owner.auth, 'GET', `${base}${api[1]!.id}`, undefined, { range: 'bytes=4-6' });
        expect(part.statusCode).toBe(206);
        expect(part.body).toBe('two');
      });

      it('restores a version by COPY or MOVE into restore/target, the current bytes becoming a version', async () => {
        const base = `${versionsOf(owner)}/versions/${file}/`;
        const [current, middle, oldest] = await versionsApi(owner.agent, file);
        const moved = await dav(owner.auth, 'MOVE', `${base}${oldest!.id}`, undefined, {
          destination: `${versionsOf(owner)}/restore/target`,
        });
        expect(moved.statusCode, moved.body).toBe(201);
        expect((await dav(owner.auth, 'GET', '/dav/files/plan.txt')).body).toBe('one');
        const after = await versionsApi(owner.agent, file);
        expect(after[0]!.id).toBe(oldest!.id);
        expect(after.map((v) => v.id).sort()).toEqual([current!.id, middle!.id, oldest!.id].sort());
        const copied = await dav(owner.auth, 'COPY', `${base}${middle!.id}`, undefined, {
          destination: `http://localhost:80${versionsOf(owner)}/restore/target`,
        });
        expect(copied.statusCode).toBe(201);
        expect((await dav(owner.auth, 'GET', '/dav/files/plan.txt')).body).toBe('two two');
        // Restoring the current version changes nothing.
        const again = await dav(owner.auth, 'MOVE', `${base}${middle!.id}`, undefined, {
          destination: `${versionsOf(owner)}/restore/target`,
        });
        expect(again.statusCode).toBe(201);
        expect(await versionsApi(owner.agent, file)).toHaveLength(3);
      });

      it("lets team members read a team file's versions, and only editors restore; others get 404", async () => {
        const created = await owner.agent.post('/api/teams/folders', { name: 'Studio', invitations: [] });
        expect(created.statusCode, created.body).toBe(201);
        const team = created.json().data.id as string;
        await uploaded(owner.agent, Buffer.from('brief v1'), { name: 'brief.txt', parentId: team });
        const briefId = await idOf(owner.user.id, 'brief.txt');
        expect((await dav(owner.auth, 'PUT', '/dav/files/Studio/brief.txt', 'brief v2')).statusCode).toBe(
          204,
        );
        const member = async (permission: 'can_edit' | 'can_view') => {
          const someone = await person();
          await addTeamMember(t, team, someone.user.id, permission);
          return someone;
        };
        const [viewer, editor, stranger] = [
          await member('can_view'),
          await member('can_edit'),
          await person(),
        ];
        const [, older] = await versionsApi(owner.agent, briefId);
        const restore = (someone: { auth: string; user: UserRow }) =>
          dav(someone.auth, 'MOVE', `${versionsOf(someone)}/versions/${briefId}/${older!.id}`, undefined, {
            destination: `${versionsOf(someone)}/restore/target`,
          });

        const listed = await dav(
          viewer.auth,
          'PROPFIND',
          `${versionsOf(viewer)}/versions/${briefId}/`,
          undefined,
          { depth: '1' },
        );
        expect(responses(listed.body)).toHaveLength(3);
        expect(
          (await dav(viewer.auth, 'GET', `${versionsOf(viewer)}/versions/${briefId}/${older!.id}`)).body,
        ).toBe('brief v1');
        expect((await restore(viewer)).statusCode).toBe(403);
        expect((await restore(stranger)).statusCode).toBe(404);
        expect(
          (
            await dav(stranger.auth, 'PROPFIND', `${versionsOf(stranger)}/versions/${briefId}/`, undefined, {
              depth: '1',
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await dav(stranger.auth, 'GET', `${versionsOf(stranger)}/versions/${briefId}/${older!.id}`))
            .statusCode,
        ).toBe(404);
        // Someone else's home in the path, even for a file they may read.
        expect(
          (
            await dav(viewer.auth, 'PROPFIND', `${versionsOf(owner)}/versions/${briefId}/`, undefined, {
              depth: '1',
            })
          ).statusCode,
        ).toBe(404);
        expect((await dav(owner.auth, 'GET', '/dav/files/Studio/brief.txt')).body).toBe('brief v2');
        expect((await restore(editor)).statusCode).toBe(201);
        expect((await dav(owner.auth, 'GET', '/dav/files/Studio/brief.txt')).body).toBe('brief v1');
      });

      it('answers 404 for an unknown file or version', async () => {
        const base = `${versionsOf(owner)}/versions`;
        for (const url of [
          `${base}/00000000-0000-4000-8000-000000000000/`,
          `${base}/not-an-id/`,
          `${base}/${file}/00000000-0000-4000-8000-000000000000`,
        ]) {
          const answer = await dav(owner.auth, 'PROPFIND', url, undefined, { depth: '1' });
          expect(answer.statusCode, url).toBe(404);
        }
        expect(
          (await dav(owner.auth, 'GET', `${base}/${file}/00000000-0000-4000-8000-000000000000`)).statusCode,
        ).toBe(404);
      });
    });
    describe('previews', () => {
      let photo: string;
      const preview = (auth: string | undefined, query: string) =>
        t.app.inject({
          method: 'GET',
          url: `/index.php/core/${query}`,
          headers: auth ? { authorization: auth } : {},
        });
      const width = async (body: Buffer) => (await sharp(body).metadata()).width;

      beforeAll(async () => {
        const image = await sharp({
          create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 80, b: 40 } },
        })
          .png()
          .toBuffer();
        expect((await dav(owner.auth, 'MKCOL', '/dav/files/Pictures')).statusCode).toBe(201);
        expect((await dav(owner.auth, 'PUT', '/dav/files/Pictures/photo.png', image)).statusCode).toBe(201);
        photo = await idOf(owner.user.id, 'photo.png');
        // The thumbnails the background job makes for every image.
        expect(await t.deps.thumbnails.generate(photo)).toBe(true);
      });

      it('answers the thumbnail nearest the asked box, by file id or by path', async () => {
        for (const [query, expected] of [
          [`preview?fileId=${photo}&x=32&y=32&a=1&mode=cover&forceIcon=0`, 96],
          [`preview?fileId=${photo}&x=200&y=150`, 256],
          [`preview?fileId=${photo}&x=2000&y=2000`, 800],
          [`preview?fileId=${photo}`, 96],
          ['preview.png?file=/Pictures/photo.png&x=500&y=500', 640],
          [`preview.png?file=${encodeURIComponent('/Pictures/photo.png')}&x=100&y=100`, 256],
        ] as const) {
          const answer = await preview(owner.auth, query);
          expect(answer.statusCode, query).toBe(200);
          expect(answer.headers['content-type']).toBe('image/webp');
          expect(await width(answer.rawPayload), query).toBe(expected);
        }
      });

      it('answers 404 where there is none or the user may not read it, 400 for a box that is no size, 401 without an app password', async () => {
        expect((await dav(owner.auth, 'PUT', '/dav/files/Pictures/notes.txt', 'text')).statusCode).toBe(201);
        const notes = await idOf(owner.user.id, 'notes.txt');
        const other = await person();
        for (const [auth, query] of [
          [owner.auth, `preview?fileId=${notes}&x=64&y=64`],
          [owner.auth, 'preview?fileId=00000000-0000-4000-8000-000000000000'],
          [owner.auth, 'preview.png?file=/Pictures/missing.png'],
          [owner.auth, 'preview.png?file=/Pictures'],
          [other.auth, `preview?fileId=${photo}&x=64&y=64`],
          [other.auth, 'preview.png?file=/Pictures/photo.png'],
        ] as const)
          expect((await preview(auth, query)).statusCode, query).toBe(404);
        for (const query of [
          'preview',
          `preview?fileId=${photo}&x=0`,
          `preview?fileId=${photo}&x=big`,
          `preview?fileId=${photo}&y=99999`,
        ])
          expect((await preview(owner.auth, query)).statusCode, query).toBe(400);
        for (const auth of [undefined, basic(owner.user.email, DEFAULT_PASSWORD)])
          expect((await preview(auth, `preview?fileId=${photo}`)).statusCode).toBe(401);
      });
    });
  });
}
