import {
  ItemList,
  NotificationList,
  UploadRequestDocument,
  UploadRequestList,
  type UploadRequestResource,
} from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadRequestJobDefinitions } from '../../src/modules/upload-requests/upload-requests.module';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { WriteFaults } from '../faults/write-faults';
import { SmtpPeer } from '../support/smtp-peer';
import { createTestApp, type TestApp } from '../support/test-app';
import { restrictAsUnpaid } from '../support/unpaid-account';
import {
  chunkRequest,
  createFilesTestApp,
  filesMatrix,
  uploadFile,
  uploaded,
  type FilesTestApp,
} from '../files/files-harness';
import { anonymousAgent, TestClock } from '../sharing/sharing-harness';

type Request = UploadRequestResource;

async function createRequest(owner: TestAgent, body: Record<string, unknown>): Promise<Request> {
  const res = await owner.post('/api/file-request', body);
  expect(res.statusCode, res.body).toBe(201);
  return UploadRequestDocument.parse(res.json()).data;
}

for (const [database, storage] of filesMatrix) {
  describe(`upload requests [${database}, ${storage}]`, () => {
    const clock = new TestClock();
    let t: FilesTestApp;
    let owner: TestAgent;
    let stranger: TestAgent;
    let outsider: TestAgent;
    /** The owner's folder the request is for, what it held before, and another folder of the owner's. */
    const ids = {} as Record<'drop' | 'before' | 'beforeFolder' | 'elsewhere', string>;
    let request: Request;
    const url = (path = '') => `/api/file-request/${request.id}${path}`;

    /** Every row and every stored object, to prove a refused call left no trace. */
    const snapshot = async () => ({
      items: await t.deps.database.db.selectFrom('items').selectAll().orderBy('id').execute(),
      requests: await t.deps.database.db.selectFrom('upload_requests').selectAll().orderBy('id').execute(),
      objects: (await t.storedObjects()).sort(),
    });
    const notifications = async () =>
      NotificationList.parse((await owner.get('/api/notifications')).json()).data.filter(
        (n) => n.attributes.category === 'file-request',
      );
    const outsiderNames = async (folder = 'all') => {
      const res = await outsider.get(url(`/browse/${folder}`));
      expect(res.statusCode, res.body).toBe(200);
      return ItemList.parse(res.json()).data.map((item) => item.attributes.name);
    };

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, clock.now);
      const { user } = await createUser(t.deps, { name: 'Olivia Owner', storageCapacity: 1_000_000 });
      ({ agent: owner } = await signedInAgent(t.app, user));
      ({ agent: stranger } = await signedInAgent(t.app));
      const folder = async (name: string, parentId: string | null = null) =>
        (await owner.post('/api/create-folder', { name, parent_id: parentId })).json().data.id as string;
      ids.drop = await folder('Client drop');
      ids.beforeFolder = await folder('Inbox', ids.drop);
      ids.elsewhere = await folder('Private');
      ids.before = (await uploaded(owner, randomBytes(500), { name: 'contract.pdf', parentId: ids.drop })).id;
      request = await createRequest(owner, { folder_id: ids.drop, notes: 'The final drawings, please.' });
      outsider = await anonymousAgent(t.app, '198.51.100.7');
    });
    afterAll(() => t.close());

    it('creates a request for a folder of the owner, active for 72 hours, and shows it to anyone with the link', async () => {
      expect(request.attributes).toMatchObject({
        status: 'active',
        name: 'Client drop',
        notes: 'The final drawings, please.',
        received: 0,
        link: `${t.env.appUrl}/request/${request.id}/upload`,
      });
      expect(new Date(request.attributes.expires_at).getTime() - clock.now().getTime()).toBe(72 * 3_600_000);
      expect(request.relationships.folder.data).toEqual({
        id: ids.drop,
        type: 'folder',
        attributes: { name: 'Client drop' },
      });
      const detail = await outsider.get(url());
      expect(detail.statusCode).toBe(200);
      expect(UploadRequestDocument.parse(detail.json()).data.attributes.owner?.name).toBe('Olivia Owner');
    });

    it('makes a folder in the root named after a request without one', async () => {
      clock.advanceSeconds(1);
      const made = await createRequest(owner, { folder_id: null, name: 'Logo files', expires_in: 24 });
      const root = ItemList.parse((await owner.get('/api/browse/folders/all')).json()).data;
      expect(root.find((item) => item.id === made.relationships.folder.data.id)?.attributes.name).toBe(
        'Logo files',
      );
      clock.advanceSeconds(1);
      const unnamed = await createRequest(owner, { folder_id: null });
      expect(unnamed.attributes.name).toMatch(/^Upload request \d{4}-\d{2}-\d{2}$/);
      const list = UploadRequestList.parse((await owner.get('/api/file-request')).json()).data;
      expect(list.map((r) => r.id).slice(0, 3)).toEqual([unnamed.id, made.id, request.id]);
    });

    it('refuses a folder that is not the owner’s, a lifetime out of range, and anyone signed out', async () => {
      const before = await snapshot();
      expect((await stranger.post('/api/file-request', { folder_id: ids.drop })).statusCode).toBe(404);
      for (const expires_in of [0, 721, 1.5, '72'])
        expect((await owner.post('/api/file-request', { folder_id: ids.drop, expires_in })).statusCode).toBe(
          422,
        );
      expect((await outsider.post('/api/file-request', { folder_id: null, name: 'x' })).statusCode).toBe(401);
      expect((await outsider.get('/api/file-request')).statusCode).toBe(401);
      // Another's list holds none of the owner's requests.
      expect(UploadRequestList.parse((await stranger.get('/api/file-request')).json()).data).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });

    it('shows the outsider nothing the folder held before', async () => {
      expect(await outsiderNames()).toEqual([]);
      const root = ItemList.parse((await outsider.get(url('/browse/all'))).json()).meta.root;
      expect(root?.attributes.items).toBe(0);
      expect((await outsider.get(url(`/browse/${ids.beforeFolder}`))).statusCode).toBe(404);
      expect((await outsider.get(url('/navigation'))).json().data).toEqual([]);
    });

    it('takes files and folders, tells the owner once when the first file arrives, and gives no way to read them back', async () => {
      const first = await uploaded(outsider, randomBytes(2000), {
        name: 'plan.dxf',
        url: url('/upload/chunks'),
      });
      expect(first.attributes).toMatchObject({ file_url: null, thumbnail: null, parent_id: ids.drop });
      await uploaded(outsider, randomBytes(300), {
        name: 'a.txt',
        path: '/Inbox/a.txt',
        url: url('/upload/chunks'),
      });
      const made = await outsider.post(url('/create-folder'), { name: 'Sketches' });
      expect(made.statusCode, made.body).toBe(201);

      // "Inbox" of the path is a folder of the request's own, not the owner's folder of that name.
      expect((await outsiderNames()).sort()).toEqual(['Inbox', 'Sketches', 'plan.dxf']);
      const tree = (await outsider.get(url('/navigation'))).json().data as { id: string; name: string }[];
      expect(tree.map((node) => node.name).sort()).toEqual(['Inbox', 'Sketches']);
      expect(tree.some((node) => node.id === ids.beforeFolder)).toBe(false);
      // The owner's folder holds one item of a name: the request's "Inbox" is theirs under a free name.
      const owners = ItemList.parse((await owner.get(`/api/browse/folders/${ids.drop}`)).json()).data;
      expect(owners.map((item) => item.attributes.name).filter((name) => name.startsWith('Inbox'))).toEqual([
        'Inbox (1)',
        'Inbox',
      ]);

      const detail = UploadRequestDocument.parse((await owner.get(url())).json()).data;
      expect(detail.attributes).toMatchObject({ status: 'filling', received: 2 });
      const told = await notifications();
      expect(told).toHaveLength(1);
      expect(told[0]!.attributes.action).toMatchObject({
        type: 'route',
        params: { route: 'Files', id: ids.drop },
      });

      // The bytes are nowhere to be had: not through the owner's addresses, not through a share's.
      expect((await outsider.get(`/file/${first.id}`)).statusCode).toBe(401);
      expect((await outsider.get(`/file/${first.id}/shared/${request.id}`)).statusCode).toBe(404);
      expect((await outsider.get(`/api/sharing/zip/${request.id}`)).statusCode).toBe(404);
    });

    it('refuses to rename, move, remove or upload into anything the request did not receive, changing nothing', async () => {
      const before = await snapshot();
      for (const [path, body] of [
        [`/rename/${ids.before}`, { name: 'mine.pdf', type: 'file', _method: 'patch' }],
        [`/rename/${ids.beforeFolder}`, { name: 'Mine', type: 'folder', _method: 'patch' }],
        [`/rename/${ids.drop}`, { name: 'Mine', type: 'folder', _method: 'patch' }],
        ['/move', { to_id: ids.beforeFolder, items: [{ id: ids.before, type: 'file' }] }],
        ['/move', { to_id: ids.elsewhere, items: [{ id: ids.before, type: 'file' }] }],
        ['/remove', { items: [{ id: ids.before, type: 'file', force_delete: true }] }],
        ['/remove', { items: [{ id: ids.beforeFolder, type: 'folder', force_delete: false }] }],
        ['/create-folder', { name: 'Planted', parent_id: ids.beforeFolder }],
        ['/create-folder', { name: 'Planted', parent_id: ids.elsewhere }],
      ] as [string, Record<string, unknown>][]) {
        const res = await outsider.post(url(path), body);
        expect([403, 404], `${path} ${res.body}`).toContain(res.statusCode);
      }
      for (const parentId of [ids.beforeFolder, ids.elsewhere]) {
        const answers = await uploadFile(outsider, randomBytes(100), {
          name: 'sneaky.bin',
          parentId,
          url: url('/upload/chunks'),
        });
        expect(answers.at(-1)!.statusCode).toBe(404);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('renames, moves and removes what it received, to the owner’s trash', async () => {
      const sent = await uploaded(outsider, randomBytes(100), {
        name: 'draft.txt',
        url: url('/upload/chunks'),
      });
      const sketches = ItemList.parse((await outsider.get(url('/browse/all'))).json()).data.find(
        (item) => item.attributes.name === 'Sketches',
      )!;
      const renamed = await outsider.post(url(`/rename/${sent.id}`), {
        name: 'final.txt',
        type: 'file',
        _method: 'patch',
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const moved = await outsider.post(url('/move'), {
        to_id: sketches.id,
        items: [{ id: sent.id, type: 'file' }],
      });
      expect(moved.statusCode, moved.body).toBe(204);
      expect(await outsiderNames(sketches.id)).toEqual(['final.txt']);
      const removed = await outsider.post(url('/remove'), {
        items: [{ id: sent.id, type: 'file', force_delete: true }],
      });
      expect(removed.statusCode, removed.body).toBe(204);
      const trash = ItemList.parse((await owner.get('/api/browse/trash/all')).json()).data;
      expect(trash.map((item) => item.id)).toContain(sent.id);
    });

    it('removes, moves or renames a folder it made only while everything in it came through the request', async () => {
      const other = await outsider.post(url('/create-folder'), { name: 'Approved' });
      const made = await outsider.post(url('/create-folder'), { name: 'Proofs' });
      expect(made.statusCode, made.body).toBe(201);
      const folderId = (made.json() as { data: { id: string } }).data.id;
      await uploaded(outsider, randomBytes(40), {
        name: 'proof.png',
        parentId: folderId,
        url: url('/upload/chunks'),
      });
      // The owner files a file of their own in it, which the outsider never sees.
      const owners = await uploaded(owner, randomBytes(60), { name: 'contract.pdf', parentId: folderId });
      const before = await snapshot();
      const refused = await outsider.post(url('/remove'), {
        items: [{ id: folderId, type: 'folder', force_delete: false }],
      });
      expect(refused.statusCode, refused.body).toBe(403);
      // Nor carried elsewhere, nor renamed: the owner's file would go with it.
      const moved = await outsider.post(url('/move'), {
        to_id: (other.json() as { data: { id: string } }).data.id,
        items: [{ id: folderId, type: 'folder' }],
      });
      expect(moved.statusCode, moved.body).toBe(403);
      const renamed = await outsider.post(url(`/rename/${folderId}`), {
        name: 'Mine',
        type: 'folder',
        _method: 'patch',
      });
      expect(renamed.statusCode, renamed.body).toBe(403);
      expect(await snapshot()).toEqual(before);

      // Once the owner takes their file out, the folder is the outsider's to remove.
      expect(
        (await owner.post('/api/move', { to_id: ids.elsewhere, items: [{ id: owners.id, type: 'file' }] }))
          .statusCode,
      ).toBe(204);
      const removed = await outsider.post(url('/remove'), {
        items: [{ id: folderId, type: 'folder', force_delete: false }],
      });
      expect(removed.statusCode, removed.body).toBe(204);
      const trash = ItemList.parse((await owner.get('/api/browse/trash/all')).json()).data;
      expect(trash.map((item) => item.id)).toContain(folderId);
    });

    it('reaches a file it sent no more once the owner filed it in a folder of the owner’s', async () => {
      const sent = await uploaded(outsider, randomBytes(30), {
        name: 'filed.txt',
        url: url('/upload/chunks'),
      });
      // The owner files it in a folder of theirs inside the request's, which the outsider never sees.
      const filed = (await owner.post('/api/create-folder', { name: 'Filed', parent_id: ids.drop })).json()
        .data.id as string;
      const move = await owner.post('/api/move', { to_id: filed, items: [{ id: sent.id, type: 'file' }] });
      expect(move.statusCode, move.body).toBe(204);
      const before = await snapshot();
      for (const [path, body] of [
        [`/rename/${sent.id}`, { name: 'mine.txt', type: 'file', _method: 'patch' }],
        ['/move', { to_id: null, items: [{ id: sent.id, type: 'file' }] }],
        ['/remove', { items: [{ id: sent.id, type: 'file', force_delete: true }] }],
      ] as [string, Record<string, unknown>][]) {
        const res = await outsider.post(url(path), body);
        // As anything else of the owner's: not there, and no answer naming the owner's folder.
        expect(res.statusCode, `${path} ${res.body}`).toBe(404);
        expect(res.body).not.toContain(filed);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('keeps each visitor’s uploads apart from the owner’s with the same key', async () => {
      const key = 'shared-key-report.txt.part';
      const half = randomBytes(100);
      // The owner's upload in progress under a key the outsider happens to use too.
      const ownerChunk = await uploadFile(owner, half, { name: 'report.txt', key, chunkSize: 100 });
      expect(ownerChunk.at(-1)!.statusCode).toBe(201);
      const sent = await uploaded(outsider, randomBytes(50), {
        name: 'report.txt',
        key,
        url: url('/upload/chunks'),
      });
      expect(sent.attributes.parent_id).toBe(ids.drop);
    });

    it('counts what is stored against the owner’s quota', async () => {
      const answers = await uploadFile(outsider, randomBytes(1_200_000), {
        name: 'huge.bin',
        url: url('/upload/chunks'),
        chunkSize: 400_000,
      });
      expect(answers.at(-1)!.statusCode).toBe(423);
    });

    describe('names: the outsider is answered with the names it gave, never one of the owner’s', () => {
      /** The owner's folder the request is for, holding a file and folders of the owner's own. */
      const studio = {} as Record<'folder' | 'report' | 'photos' | 'contracts', string>;
      let through: (path: string) => string;
      const send = (name: string, extra: { path?: string; parentId?: string; conflict?: 'replace' } = {}) =>
        uploaded(outsider, Buffer.from(`${name} from the outsider`), {
          name,
          url: through('/upload/chunks'),
          ...extra,
        });
      const ownersNames = async (folderId = studio.folder) =>
        ItemList.parse((await owner.get(`/api/browse/folders/${folderId}?per_page=500`)).json())
          .data.map((item) => item.attributes.name)
          .sort();
      const sentNames = async (folderId = 'all') =>
        ItemList.parse(
          (await outsider.get(through(`/browse/${folderId}?sort=name&direction=asc`))).json(),
        ).data.map((item) => item.attributes.name);

      beforeAll(async () => {
        const folder = async (name: string, parentId: string | null = null) =>
          (await owner.post('/api/create-folder', { name, parent_id: parentId })).json().data.id as string;
        studio.folder = await folder('Studio drop');
        studio.photos = await folder('Photos', studio.folder);
        studio.contracts = await folder('Contracts', studio.folder);
        studio.report = (
          await uploaded(owner, Buffer.from('the owner’s report'), {
            name: 'report.pdf',
            parentId: studio.folder,
          })
        ).id;
        await uploaded(owner, Buffer.from('the owner’s notes'), {
          name: 'notes.txt',
          parentId: studio.folder,
        });
        const made = await createRequest(owner, { folder_id: studio.folder });
        through = (path: string) => `/api/file-request/${made.id}${path}`;
      });

      it('takes a file of a name the owner’s folder holds under that name for the outsider, keeping the owner’s file', async () => {
        const sent = await send('report.pdf');
        expect(sent.attributes.name).toBe('report.pdf');
        // A second of the name is kept beside the outsider's own first, as the outsider knows it.
        const again = await send('report.pdf');
        expect(again.attributes.name).toBe('report (1).pdf');
        // A replace takes the outsider's own file of the name, never the owner's.
        const replaced = await uploaded(outsider, randomBytes(30), {
          name: 'report.pdf',
          url: through('/upload/chunks'),
          conflict: 'replace',
        });
        expect(replaced).toMatchObject({ id: sent.id, attributes: { name: 'report.pdf', filesize: 30 } });
        expect(await sentNames()).toEqual(['report (1).pdf', 'report.pdf']);

        // The owner keeps their file as it was, and sees the two beside it under free names.
        expect(await ownersNames()).toEqual([
          'Contracts',
          'Photos',
          'notes.txt',
          'report (1).pdf',
          'report (2).pdf',
          'report.pdf',
        ]);
        expect((await owner.get(`/file/${studio.report}`)).body).toBe('the owner’s report');
      });

      it('makes a folder of a name the owner’s folder holds, by its call or by a path, under that name for the outsider', async () => {
        const made = await outsider.post(through('/create-folder'), { name: 'Photos' });
        expect(made.statusCode, made.body).toBe(201);
        expect(made.json().data.attributes.name).toBe('Photos');
        const photos = made.json().data.id as string;
        // A path names the outsider's own folder of that name, never the owner's.
        const inPhotos = await send('a.jpg', { path: '/Photos/a.jpg' });
        expect(inPhotos.attributes.parent_id).toBe(photos);
        const byPath = await send('deal.txt', { path: '/Contracts/deal.txt' });
        expect(byPath.attributes.parent_id).not.toBe(studio.contracts);

        expect(await sentNames()).toEqual(['Contracts', 'Photos', 'report (1).pdf', 'report.pdf']);
        const tree = (await outsider.get(through('/navigation'))).json().data as {
          id: string;
          name: string;
        }[];
        expect(tree.map((node) => node.name)).toEqual(['Contracts', 'Photos']);
        const folder = await outsider.get(through(`/browse/${byPath.attributes.parent_id as string}`));
        expect(ItemList.parse(folder.json()).meta.root?.attributes.name).toBe('Contracts');

        // The owner's folder holds one item of each name: theirs, and the outsider's under free names.
        expect((await ownersNames()).filter((name) => /^(Contracts|Photos)/.test(name))).toEqual([
          'Contracts',
          'Contracts (1)',
          'Photos',
          'Photos (1)',
        ]);
        expect(await ownersNames(studio.photos)).toEqual([]);
        expect(await ownersNames(studio.contracts)).toEqual([]);

        // A name the outsider gave one of its own folders is theirs to be told of.
        const twice = await outsider.post(through('/create-folder'), { name: 'Photos' });
        expect(twice.statusCode, twice.body).toBe(422);
        expect(twice.json().errors).toHaveProperty('name');
      });

      it('renames its own item onto a name the owner holds there, the outsider seeing the name it gave', async () => {
        const second = ItemList.parse((await outsider.get(through('/browse/all'))).json()).data.find(
          (item) => item.attributes.name === 'report (1).pdf',
        )!;
        const renamed = await outsider.post(through(`/rename/${second.id}`), {
          name: 'notes.txt',
          type: 'file',
          _method: 'patch',
        });
        expect(renamed.statusCode, renamed.body).toBe(200);
        expect(renamed.json().data.attributes.name).toBe('notes.txt');
        expect(await sentNames()).toEqual(['Contracts', 'Photos', 'notes.txt', 'report.pdf']);
        expect(await ownersNames()).toEqual([
          'Contracts',
          'Contracts (1)',
          'Photos',
          'Photos (1)',
          'notes (1).txt',
          'notes.txt',
          'report (1).pdf',
          'report.pdf',
        ]);

        // Onto a name of its own, a rename is refused as the owner's would be.
        const onOwn = await outsider.post(through(`/rename/${second.id}`), {
          name: 'report.pdf',
          type: 'file',
          _method: 'patch',
        });
        expect(onOwn.statusCode, onOwn.body).toBe(422);
      });

      it('moves its own item into its folder where the owner filed one of that name, the outsider seeing its names', async () => {
        const made = await outsider.post(through('/create-folder'), { name: 'Sorted' });
        expect(made.statusCode, made.body).toBe(201);
        const sorted = made.json().data.id as string;
        // The owner files a file of their own into the outsider's folder, which the outsider never sees.
        await uploaded(owner, Buffer.from('the owner’s b'), { name: 'b.txt', parentId: sorted });
        const b = await send('b.txt');
        const moved = await outsider.post(through('/move'), {
          to_id: sorted,
          items: [{ id: b.id, type: 'file' }],
        });
        expect(moved.statusCode, moved.body).toBe(204);
        expect(await sentNames(sorted)).toEqual(['b.txt']);
        expect(await ownersNames(sorted)).toEqual(['b (1).txt', 'b.txt']);
      });

      it('orders and pages the outsider’s listing by the names it gave, with cursors that carry no other', async () => {
        // Stored as `report (1).pdf`, the outsider's `report.pdf` sorts after `report-final.pdf` all the same.
        await send('report-final.pdf');
        const names: string[] = [];
        let cursor: string | null | undefined = null;
        do {
          const res = await outsider.get(
            through(`/browse/all?sort=name&direction=asc&per_page=1${cursor ? `&cursor=${cursor}` : ''}`),
          );
          expect(res.statusCode, res.body).toBe(200);
          const page = ItemList.parse(res.json());
          names.push(...page.data.map((item) => item.attributes.name));
          cursor = page.meta.next_cursor;
          if (cursor) expect(Buffer.from(cursor, 'base64url').toString()).not.toMatch(/\(\d\)/);
        } while (cursor);
        expect(names).toEqual([
          'Contracts',
          'Photos',
          'Sorted',
          'notes.txt',
          'report-final.pdf',
          'report.pdf',
        ]);
      });

      it('goes on showing the outsider its names after the owner renames its items', async () => {
        const [report] = ItemList.parse((await outsider.get(through('/browse/all'))).json()).data.filter(
          (item) => item.attributes.name === 'report-final.pdf',
        );
        const res = await owner.post(`/api/rename/${report!.id}`, {
          name: 'Client report.pdf',
          type: 'file',
          _method: 'patch',
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.attributes.name).toBe('Client report.pdf');
        expect(await sentNames()).toContain('report-final.pdf');
        expect(await sentNames()).not.toContain('Client report.pdf');
      });

      it('keeps one name per item for the outsider when the owner restores one of theirs another took the name of', async () => {
        const first = await send('brief.pdf');
        const trashed = await owner.post('/api/remove', {
          items: [{ id: first.id, type: 'file', force_delete: false }],
        });
        expect(trashed.statusCode, trashed.body).toBe(204);
        // The name is free again for the outsider, who sends another of it.
        expect((await send('brief.pdf')).attributes.name).toBe('brief.pdf');
        const restored = await owner.post('/api/trash/restore', {
          to_home: false,
          items: [{ id: first.id, type: 'file' }],
        });
        expect(restored.statusCode, restored.body).toBe(204);
        const names = await sentNames();
        expect(names.filter((name) => name.startsWith('brief'))).toEqual(['brief (1).pdf', 'brief.pdf']);
      });
    });

    it('closes on the outsider’s "I’m done", tells the owner, and answers 410 to every call but the detail', async () => {
      const closing = await createRequest(owner, { folder_id: ids.elsewhere });
      const through = (path: string) => `/api/file-request/${closing.id}${path}`;
      await uploaded(outsider, randomBytes(10), { name: 'one.txt', url: through('/upload/chunks') });
      const toldBefore = (await notifications()).length;

      expect((await outsider.delete(through(''))).statusCode).toBe(204);
      const told = await notifications();
      expect(told).toHaveLength(toldBefore + 1);
      expect(told[0]!.attributes.description).toContain('1 file received');

      const before = await snapshot();
      const detail = await outsider.get(through(''));
      expect(detail.statusCode).toBe(200);
      expect(UploadRequestDocument.parse(detail.json()).data.attributes.status).toBe('filled');
      for (const [method, path, body] of [
        ['GET', '/browse/all', undefined],
        ['GET', '/navigation', undefined],
        ['POST', '/create-folder', { name: 'Late' }],
        ['POST', '/move', { to_id: null, items: [{ id: ids.before, type: 'file' }] }],
        ['POST', '/remove', { items: [{ id: ids.before, type: 'file', force_delete: false }] }],
        ['DELETE', '', undefined],
      ] as const) {
        const res = await outsider.request(method, through(path), body);
        expect(res.statusCode, `${method} ${path}`).toBe(410);
      }
      const late = await uploadFile(outsider, randomBytes(10), {
        name: 'late.txt',
        url: through('/upload/chunks'),
      });
      expect(late.at(-1)!.statusCode).toBe(410);
      expect(await snapshot()).toEqual(before);
    });

    it('closes without a notification when the owner closes it', async () => {
      const own = await createRequest(owner, { folder_id: ids.elsewhere });
      const toldBefore = (await notifications()).length;
      expect((await owner.delete(`/api/file-request/${own.id}`)).statusCode).toBe(204);
      expect(await notifications()).toHaveLength(toldBefore);
      const list = UploadRequestList.parse((await owner.get('/api/file-request')).json()).data;
      expect(list.find((r) => r.id === own.id)?.attributes.status).toBe('filled');
    });

    it('expires at its time, checked on every call, with no job needed', async () => {
      const short = await createRequest(owner, { folder_id: ids.elsewhere, expires_in: 1 });
      const through = (path: string) => `/api/file-request/${short.id}${path}`;
      expect((await outsider.get(through('/browse/all'))).statusCode).toBe(200);
      clock.advanceSeconds(3599);
      expect((await outsider.get(through('/browse/all'))).statusCode).toBe(200);
      clock.advanceSeconds(1);
      expect((await outsider.get(through('/browse/all'))).statusCode).toBe(410);
      expect((await outsider.delete(through(''))).statusCode).toBe(410);
      const detail = UploadRequestDocument.parse((await outsider.get(through(''))).json()).data;
      expect(detail.attributes.status).toBe('expired');
    });

    it('answers 404 for an unknown token and once its folder is in the trash', async () => {
      for (const token of ['00000000-0000-4000-8000-000000000000', 'not-a-token'])
        expect((await outsider.get(`/api/file-request/${token}`)).statusCode).toBe(404);
      const doomed = await createRequest(owner, { folder_id: null, name: 'Doomed' });
      const folderId = doomed.relationships.folder.data.id;
      expect(
        (await owner.post('/api/remove', { items: [{ id: folderId, type: 'folder', force_delete: false }] }))
          .statusCode,
      ).toBe(204);
      expect((await outsider.get(`/api/file-request/${doomed.id}`)).statusCode).toBe(404);
      expect((await outsider.get(`/api/file-request/${doomed.id}/browse/all`)).statusCode).toBe(404);
    });
  });
}

describeEachDatabase('upload requests: e-mails', (kind) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  const faults = new WriteFaults();
  let owner: TestAgent;
  let ownerEmail: string;

  beforeAll(async () => {
    smtp = await new SmtpPeer().start();
    t = await createTestApp({
      database: kind,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Atelier <robot@atelier.test>' },
      plugins: [faults],
    });
    const { user } = await createUser(t.deps, { name: 'Olivia Owner' });
    ownerEmail = user.email;
    ({ agent: owner } = await signedInAgent(t.app, user));
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('mails the link and the notes to the outsider, and the owner of the first file and of the close', async () => {
    const request = await createRequest(owner, {
      folder_id: null,
      name: 'Tax papers',
      email: 'client@example.test',
      notes: 'Scans of last year receipts.',
    });
    // The link goes by a job: none is sent while no worker runs.
    expect(smtp.messages).toEqual([]);
    const worker = t.deps.jobs.startWorker({ definitions: uploadRequestJobDefinitions, services: t.deps });
    try {
      const invitation = await smtp.waitFor('client@example.test');
      expect(invitation.subject).toContain('Olivia Owner');
      expect(invitation.text).toContain(request.attributes.link);
      expect(invitation.text).toContain('Scans of last year receipts.');
      // The deadline as the instance's language writes it (English here), not JavaScript's UTC string.
      const deadline = new Date(request.attributes.expires_at);
      const month = deadline.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
      expect(invitation.text).toContain(`${month} ${deadline.getUTCDate()}, ${deadline.getUTCFullYear()}`);
      expect(invitation.text).not.toContain('GMT');

      const outsider = await anonymousAgent(t.app);
      await uploaded(outsider, randomBytes(10), {
        name: 'receipt.pdf',
        url: `/api/file-request/${request.id}/upload/chunks`,
      });
      const arriving = await smtp.waitFor(ownerEmail);
      expect(arriving.text).toContain('Tax papers');
      expect(arriving.text).toContain(`/platform/files/${request.relationships.folder.data.id}`);
      expect((await outsider.delete(`/api/file-request/${request.id}`)).statusCode).toBe(204);
      await expect
        .poll(() => smtp.messages.filter((m) => m.to.includes(ownerEmail)).length, { timeout: 10_000 })
        .toBe(2);
      const filled = smtp.messages.filter((m) => m.to.includes(ownerEmail))[1]!;
      expect(filled.text).toContain('1 file received');
    } finally {
      await worker.close();
    }
  });

  it('mails no link to a request that ended before its e-mail went out', async () => {
    const closed = await createRequest(owner, {
      folder_id: null,
      name: 'Closed',
      email: 'closed@example.test',
    });
    expect((await owner.delete(`/api/file-request/${closed.id}`)).statusCode).toBe(204);
    // What the link's job does, once the mail server answers again.
    await t.deps.uploadRequests.mailLink(closed.id);
    const open = await createRequest(owner, { folder_id: null, name: 'Open', email: 'open@example.test' });
    await t.deps.uploadRequests.mailLink(open.id);
    expect(smtp.messages.flatMap((m) => m.to).filter((to) => /(closed|open)@/.test(to))).toEqual([
      'open@example.test',
    ]);
  });

  it('makes the folder, the request and its e-mail all together or not at all', async () => {
    const db = t.deps.database.db;
    const made = async () => ({
      folders: (await db.selectFrom('items').select('id').where('name', '=', 'Contracts').execute()).length,
      requests: (
        await db.selectFrom('upload_requests').select('id').where('name', '=', 'Contracts').execute()
      ).length,
      mails: (await db.selectFrom('jobs').select('name').execute()).filter(
        (job) => job.name === 'upload-requests.mail-link',
      ).length,
    });
    const body = { folder_id: null, name: 'Contracts', email: 'supplier@example.test' };
    const clear = async () => {
      await db.deleteFrom('upload_requests').execute();
      await db.deleteFrom('items').where('name', '=', 'Contracts').execute();
      await db.deleteFrom('jobs').execute();
    };
    await clear();
    const counted = await faults.run(0, 'throw', () => owner.post('/api/file-request', body));
    expect(await made()).toEqual({ folders: 1, requests: 1, mails: 1 });
    for (let after = 1; after <= counted.writes; after++) {
      await clear();
      let status = 0;
      await faults.run(after, 'throw', async () => {
        status = (await owner.post('/api/file-request', body)).statusCode;
      });
      expect(status, `after write ${after}`).toBe(500);
      expect(await made(), `after write ${after}`).toEqual({ folders: 0, requests: 0, mails: 0 });
    }
  });
});

describeEachDatabase('upload requests and the owner’s account', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: clock.now });
  });
  afterAll(() => t.close());

  it('makes a folder of its own for each request of one name, keeping both names', async () => {
    const { agent: owner } = await signedInAgent(t.app);
    const folders: string[] = [];
    for (let i = 0; i < 2; i++)
      folders.push((await createRequest(owner, { name: 'Invoices' })).relationships.folder.data.id);
    for (let i = 0; i < 2; i++) folders.push((await createRequest(owner, {})).relationships.folder.data.id);
    const names = ItemList.parse((await owner.get('/api/browse/folders/all')).json())
      .data.filter((item) => folders.includes(item.id))
      .map((item) => item.attributes.name)
      .sort();
    const day = clock.now().toISOString().slice(0, 10);
    expect(names).toEqual(
      ['Invoices', 'Invoices (1)', `Upload request ${day}`, `Upload request ${day} (1)`].sort(),
    );
  });

  it('names the new folder by the shipped text when an admin translated it into no folder name', async () => {
    const { user: adminUser } = await createUser(t.deps, { role: 'admin' });
    const { agent: admin } = await signedInAgent(t.app, adminUser);
    const { agent: owner } = await signedInAgent(t.app);
    const translated = await admin.patch('/api/admin/languages/en/strings', {
      key: 'upload_request.default_name',
      value: 'Uploads / {{date}}',
    });
    expect(translated.statusCode, translated.body).toBe(200);
    try {
      const request = await createRequest(owner, {});
      const folder = ItemList.parse((await owner.get('/api/browse/folders/all')).json()).data.find(
        (item) => item.id === request.relationships.folder.data.id,
      )!;
      expect(folder.attributes.name).toBe(`Upload request ${clock.now().toISOString().slice(0, 10)}`);
    } finally {
      await admin.delete('/api/admin/languages/en/strings/upload_request.default_name');
    }
  });

  it('files nothing that arrives once the request expired, though its chunk set out while it was open', async () => {
    const { user } = await createUser(t.deps);
    const { agent: owner } = await signedInAgent(t.app, user);
    const request = await createRequest(owner, { folder_id: null, name: 'Late drop' });
    // The chunk passed the request's check; the request ends while the bytes are on their way.
    const visit = await t.deps.uploadRequests.visit(request.id);
    const received = await t.deps.uploadRequests.receive(
      visit,
      'late-1.part',
      { name: 'late.txt' },
      Readable.from([Buffer.from('too late')]),
    );
    clock.advanceHours(73);
    await expect(
      received.commit({ name: 'late.txt', extension: 'txt', is_last_chunk: '1' }),
    ).rejects.toMatchObject({
      code: 'gone',
    });
    const filed = await t.deps.database.db
      .selectFrom('items')
      .select('id')
      .where('upload_request_id', '=', request.id)
      .execute();
    expect(filed).toEqual([]);
  });

  it('tells the outsider that uploads are off, never why: the owner’s unpaid bill is the owner’s', async () => {
    const { user } = await createUser(t.deps);
    const { agent: owner } = await signedInAgent(t.app, user);
    const request = await createRequest(owner, { folder_id: null, name: 'Unpaid drop' });
    const undo = await restrictAsUnpaid(t, user.id);
    try {
      const send = (as: TestAgent, url: string) => uploadFile(as, randomBytes(100), { name: 'a.bin', url });
      const [refused] = await send(
        await anonymousAgent(t.app, '198.51.100.10'),
        `/api/file-request/${request.id}/upload/chunks`,
      );
      expect(refused!.statusCode).toBe(401);
      expect(refused!.json().message).not.toMatch(/2[.,]60/);
      const [own] = await send(owner, '/api/upload/chunks');
      expect(own!.json().message).toMatch(/2[.,]60/);
    } finally {
      await undo();
    }
  });

  it('gives back the room held by uploads left unfinished when the request closes', async () => {
    const { user } = await createUser(t.deps);
    const { agent: owner } = await signedInAgent(t.app, user);
    const request = await createRequest(owner, { folder_id: null, name: 'Half sent' });
    const outsider = await anonymousAgent(t.app, '198.51.100.11');
    const first = await chunkRequest(outsider, randomBytes(3000), {
      name: 'half.bin',
      key: 'half-1.part',
      last: false,
      url: `/api/file-request/${request.id}/upload/chunks`,
    });
    expect(first.statusCode).toBe(204);
    const held = async () =>
      Number(
        (
          await t.deps.database.db
            .selectFrom('storage_usage')
            .select('reserved_bytes')
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).reserved_bytes,
      );
    expect(await held()).toBe(3000);
    expect((await owner.delete(`/api/file-request/${request.id}`)).statusCode).toBe(204);
    expect(await held()).toBe(0);
    const sessions = await t.deps.database.db
      .selectFrom('upload_sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('lets none of the owner’s versions go to make room for an outsider’s upload: the quota refuses it', async () => {
    const { user } = await createUser(t.deps, { storageCapacity: 10_000 });
    const { agent: owner } = await signedInAgent(t.app, user);
    const file = await uploaded(owner, randomBytes(4000), { name: 'drawing.dwg' });
    await uploaded(owner, randomBytes(4000), { name: 'drawing.dwg', conflict: 'replace' });
    clock.advanceHours(48);
    const request = await createRequest(owner, { folder_id: null, name: 'Drop' });
    const outsider = await anonymousAgent(t.app, '198.51.100.9');
    const answers = await uploadFile(outsider, randomBytes(4000), {
      name: 'big.bin',
      url: `/api/file-request/${request.id}/upload/chunks`,
    });
    expect(answers.at(-1)!.statusCode).toBe(423);
    const versions = await t.deps.database.db
      .selectFrom('file_versions')
      .select('id')
      .where('item_id', '=', file.id)
      .execute();
    expect(versions).toHaveLength(1);
  });
});
