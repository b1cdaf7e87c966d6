import { ItemList } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import {
  createFilesTestApp,
  filesMatrix,
  uploadFile,
  uploaded,
  type FilesTestApp,
} from '../files/files-harness';
import { anonymousAgent, createShare, type ShareAttributes } from './sharing-harness';

for (const [database, storage] of filesMatrix) {
  describe(`share pages: what an editor may change [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let owner: TestAgent;
    let ownerId: string;
    const ids = {} as Record<'shared' | 'inner' | 'file' | 'outside' | 'secret', string>;
    let editorLink: ShareAttributes;
    let visitorLink: ShareAttributes;
    let editor: TestAgent;

    /** Every row and every stored object, to prove a refused call left no trace. */
    const snapshot = async () => ({
      items: await t.deps.database.db.selectFrom('items').selectAll().orderBy('id').execute(),
      objects: (await t.storedObjects()).sort(),
    });

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage);
      const { user } = await createUser(t.deps, { storageCapacity: 1_000_000 });
      ({ agent: owner } = await signedInAgent(t.app, user));
      ownerId = user.id;
      const folder = async (name: string, parentId: string | null = null) =>
        (await owner.post('/api/create-folder', { name, parent_id: parentId })).json().data.id as string;
      ids.shared = await folder('Team drop');
      ids.inner = await folder('Inner', ids.shared);
      ids.outside = await folder('Private');
      ids.file = (await uploaded(owner, randomBytes(1000), { name: 'draft.bin', parentId: ids.shared })).id;
      ids.secret = (
        await uploaded(owner, randomBytes(1000), { name: 'secret.bin', parentId: ids.outside })
      ).id;
      editorLink = await createShare(owner, { id: ids.shared, type: 'folder', permission: 'editor' });
      visitorLink = await createShare(owner, { id: ids.inner, type: 'folder', permission: 'visitor' });
      editor = await anonymousAgent(t.app);
    });
    afterAll(() => t.close());

    const names = async (folderRef: string) =>
      ItemList.parse((await owner.get(`/api/browse/folders/${folderRef}`)).json()).data.map(
        (i) => i.attributes.name,
      );

    it('refuses every change through a visitor link with 403, and changes nothing', async () => {
      const target = (await uploaded(owner, randomBytes(10), { name: 'kept.bin', parentId: ids.inner })).id;
      const before = await snapshot();
      const token = visitorLink.token;
      for (const [url, body] of [
        [`/api/sharing/create-folder/${token}`, { name: 'Planted' }],
        [`/api/sharing/rename/${target}/${token}`, { name: 'renamed.bin', type: 'file', _method: 'patch' }],
        [`/api/sharing/move/${token}`, { to_id: null, items: [{ id: target, type: 'file' }] }],
        [`/api/sharing/remove/${token}`, { items: [{ id: target, type: 'file', force_delete: false }] }],
      ] as [string, Record<string, unknown>][]) {
        const res = await editor.post(url, body);
        expect(res.statusCode, url).toBe(403);
      }
      const upload = await uploadFile(editor, randomBytes(100), {
        name: 'sneaky.bin',
        url: `/api/sharing/upload/chunks/${token}`,
      });
      expect(upload.at(-1)!.statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('creates folders, uploads, renames and moves inside the shared folder, for the owner', async () => {
      const created = await editor.post(`/api/sharing/create-folder/${editorLink.token}`, {
        name: 'From outside',
      });
      expect(created.statusCode).toBe(201);
      const made = created.json().data;
      expect(made.attributes.parent_id).toBe(ids.shared);

      const file = await uploaded(editor, randomBytes(5000), {
        name: 'delivery.bin',
        parentId: made.id,
        url: `/api/sharing/upload/chunks/${editorLink.token}`,
        chunkSize: 2000,
      });
      expect(file.attributes.parent_id).toBe(made.id);
      expect(file.attributes.file_url).toBe(`/file/${file.id}/shared/${editorLink.token}`);

      // A folder dropped as a whole: its folders are made inside the share.
      const nested = await uploaded(editor, randomBytes(300), {
        name: 'deep.bin',
        path: '/Dropped/Deeper/deep.bin',
        url: `/api/sharing/upload/chunks/${editorLink.token}`,
      });
      expect(await names(ids.shared)).toEqual(expect.arrayContaining(['Dropped', 'From outside']));

      const renamed = await editor.post(`/api/sharing/rename/${file.id}/${editorLink.token}`, {
        name: 'final delivery.bin',
        type: 'file',
        _method: 'patch',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().data.attributes.name).toBe('final delivery.bin');

      const moved = await editor.post(`/api/sharing/move/${editorLink.token}`, {
        to_id: ids.inner,
        items: [
          { id: file.id, type: 'file' },
          { id: nested.id, type: 'file' },
        ],
      });
      expect(moved.statusCode).toBe(204);
      expect(await names(ids.inner)).toEqual(expect.arrayContaining(['final delivery.bin', 'deep.bin']));

      // Everything stored belongs to the owner and counts in the owner's usage.
      const rows = await t.deps.database.db
        .selectFrom('items')
        .select('user_id')
        .where('id', 'in', [made.id, file.id, nested.id])
        .execute();
      expect(rows.every((r) => r.user_id === ownerId)).toBe(true);
      const usage = (await owner.get('/api/user/storage')).json().data.used;
      expect(usage).toBe(1000 + 1000 + 10 + 5000 + 300);
    });

    it("deletes into the owner's trash only, even when asked to delete for good", async () => {
      const doomed = (await uploaded(owner, randomBytes(64), { name: 'doomed.bin', parentId: ids.shared }))
        .id;
      const res = await editor.post(`/api/sharing/remove/${editorLink.token}`, {
        items: [{ id: doomed, type: 'file', force_delete: true }],
      });
      expect(res.statusCode).toBe(204);
      const trash = ItemList.parse((await owner.get('/api/browse/trash/all')).json());
      expect(trash.data.map((i) => i.id)).toContain(doomed);
      expect((await editor.get(`/file/${doomed}/shared/${editorLink.token}`)).statusCode).toBe(404);
      // Nor can the editor reach it in the trash to finish it off.
      const again = await editor.post(`/api/sharing/remove/${editorLink.token}`, {
        items: [{ id: doomed, type: 'file', force_delete: true }],
      });
      expect(again.statusCode).toBe(404);
      expect((await owner.get(`/file/${doomed}`)).statusCode).toBe(200);
    });

    it('answers 404 for any item or target outside the share, in a path or a body, and changes nothing', async () => {
      const { agent: other } = await signedInAgent(t.app);
      const foreign = (await other.post('/api/create-folder', { name: 'Foreign' })).json().data.id;
      const before = await snapshot();
      const token = editorLink.token;
      for (const [url, body] of [
        [`/api/sharing/create-folder/${token}`, { name: 'Planted', parent_id: ids.outside }],
        [`/api/sharing/create-folder/${token}`, { name: 'Planted', parent_id: foreign }],
        [`/api/sharing/rename/${ids.secret}/${token}`, { name: 'pwned.bin', type: 'file', _method: 'patch' }],
        [`/api/sharing/rename/${ids.outside}/${token}`, { name: 'pwned', type: 'folder', _method: 'patch' }],
        [`/api/sharing/move/${token}`, { to_id: ids.outside, items: [{ id: ids.file, type: 'file' }] }],
        [`/api/sharing/move/${token}`, { to_id: foreign, items: [{ id: ids.file, type: 'file' }] }],
        [`/api/sharing/move/${token}`, { to_id: ids.inner, items: [{ id: ids.secret, type: 'file' }] }],
        [
          `/api/sharing/move/${token}`,
          {
            to_id: ids.inner,
            items: [
              { id: ids.file, type: 'file' },
              { id: ids.outside, type: 'folder' },
            ],
          },
        ],
        [`/api/sharing/remove/${token}`, { items: [{ id: ids.secret, type: 'file', force_delete: true }] }],
        [`/api/sharing/remove/${token}`, { items: [{ id: foreign, type: 'folder', force_delete: false }] }],
        [
          `/api/sharing/remove/${token}`,
          {
            items: [
              { id: ids.file, type: 'file', force_delete: false },
              { id: ids.outside, type: 'folder', force_delete: false },
            ],
          },
        ],
      ] as [string, Record<string, unknown>][]) {
        const res = await editor.post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(404);
      }
      const upload = await uploadFile(editor, randomBytes(3000), {
        name: 'planted.bin',
        parentId: ids.outside,
        chunkSize: 1000,
        url: `/api/sharing/upload/chunks/${token}`,
      });
      expect(upload.at(-1)!.statusCode).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it('leaves the shared folder itself as the owner made it', async () => {
      const before = await snapshot();
      const token = editorLink.token;
      for (const [url, body] of [
        [`/api/sharing/rename/${ids.shared}/${token}`, { name: 'Taken', type: 'folder', _method: 'patch' }],
        [`/api/sharing/move/${token}`, { to_id: ids.inner, items: [{ id: ids.shared, type: 'folder' }] }],
        [
          `/api/sharing/remove/${token}`,
          { items: [{ id: ids.shared, type: 'folder', force_delete: false }] },
        ],
      ] as [string, Record<string, unknown>][]) {
        expect((await editor.post(url, body)).statusCode, url).toBe(403);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("holds uploads to the owner's quota: past it the upload is refused with 423 and leaves nothing", async () => {
      const before = await snapshot();
      const answers = await uploadFile(editor, randomBytes(999_000), {
        name: 'too-big.bin',
        chunkSize: 200_000,
        url: `/api/sharing/upload/chunks/${editorLink.token}`,
      });
      expect(answers.at(-1)!.statusCode).toBe(423);
      expect(await snapshot()).toEqual(before);
    });
  });
}
