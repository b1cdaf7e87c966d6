import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/modules/files/files.access';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, uploaded, type FilesTestApp } from './files-harness';

const LIST = { sort: 'name', direction: 'asc', page: 1, per_page: 50 } as const;

// A share-token visitor or a team member is another Actor: confined to a folder, maybe read-only.
// The same service calls must keep them inside it without any change to the checks.
describe('a confined, read-only actor', () => {
  let t: FilesTestApp;
  let ownerId: string;
  let shared: string;
  let inner: string;
  let outside: string;
  let sharedFile: string;
  let visitor: Actor;

  beforeAll(async () => {
    t = await createFilesTestApp('sqlite', 'local');
    const { agent, user } = await signedInAgent(t.app);
    ownerId = user.id;
    shared = (await agent.post('/api/create-folder', { name: 'Shared' })).json().data.id;
    inner = (await agent.post('/api/create-folder', { name: 'Inner', parent_id: shared })).json().data.id;
    outside = (await agent.post('/api/create-folder', { name: 'Outside' })).json().data.id;
    sharedFile = (await uploaded(agent, randomBytes(100), { name: 'in.bin', parentId: inner })).id;
    await uploaded(agent, randomBytes(100), { name: 'out.bin', parentId: outside });
    visitor = {
      ownerId,
      userId: null,
      rootId: shared,
      canWrite: false,
      shareToken: null,
      uploadRequestId: null,
    };
  });
  afterAll(() => t.close());

  it('sees its folder as the root and nothing beside it', async () => {
    const root = await t.deps.files.browseFolder(visitor, 'all', LIST);
    expect(root.data.map((i) => i.attributes.name)).toEqual(['Inner']);
    expect(root.meta.root?.id).toBe(shared);
    expect(
      (await t.deps.files.browseFolder(visitor, inner, LIST)).data.map((i) => i.attributes.name),
    ).toEqual(['in.bin']);
    expect((await t.deps.files.navigation(visitor)).map((n) => n.name)).toEqual(['Inner']);
  });

  it('gets a 404 for anything of the owner outside its folder', async () => {
    await expect(t.deps.files.browseFolder(visitor, outside, LIST)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(t.deps.downloads.file(visitor, sharedFile)).resolves.toMatchObject({ name: 'in.bin' });
    await expect(t.deps.downloads.zip(visitor, [{ id: outside, type: 'folder' }])).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it("has no view over the whole tree: latest, trash and usage are the owner's", async () => {
    for (const call of [
      () => t.deps.files.latest(visitor, LIST),
      () => t.deps.files.browseTrash(visitor, 'all', LIST),
      () => t.deps.files.storageUsage(visitor),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'forbidden' });
    }
  });

  it('searches only below its folder', async () => {
    expect((await t.deps.files.search(visitor, 'in')).map((i) => i.attributes.name)).toEqual([
      'Inner',
      'in.bin',
    ]);
    expect(await t.deps.files.search(visitor, 'out')).toEqual([]);
  });

  it('may change nothing when read-only', async () => {
    await expect(t.deps.files.createFolder(visitor, { name: 'x', parent_id: inner })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      t.deps.files.remove(visitor, [{ id: sharedFile, type: 'file', force_delete: true }]),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(t.deps.downloads.file(visitor, sharedFile)).resolves.toBeDefined();
  });

  it('keeps favourites personal: an anonymous visitor has none to set', async () => {
    await expect(t.deps.files.addFavourites(visitor, [inner])).rejects.toMatchObject({ code: 'not_found' });
  });
});
