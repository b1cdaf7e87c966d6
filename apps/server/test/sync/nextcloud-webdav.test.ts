import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { createUser, DEFAULT_PASSWORD, signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, uploaded, type FilesTestApp } from '../files/files-harness';
import { basic } from '../webdav/webdav-harness';

type DavMethod = 'GET' | 'PUT' | 'DELETE' | 'PROPFIND' | 'MKCOL' | 'COPY' | 'MOVE';

for (const [database, storage] of filesMatrix) {
  describe(`Nextcloud's WebDAV addresses [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: { user: UserRow; agent: TestAgent; auth: string };

    const person = async () => {
      const { user } = await createUser(t.deps);
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'Desktop' });
      return { user, agent: (await signedInAgent(t.app, user)).agent, auth: basic(user.email, password) };
    };
    const dav = (
      auth: string,
      method: DavMethod,
      url: string,
      payload?: string | Buffer,
      headers: Record<string, string> = {},
    ) =>
      t.app.inject({ method: method as 'GET', url, payload, headers: { authorization: auth, ...headers } });
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
        await t.deps.database.db
          .insertInto('team_members')
          .values({
            folder_id: team,
            user_id: someone.user.id,
            permission,
            created_at: new Date().toISOString(),
          })
          .execute();

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
  });
}
