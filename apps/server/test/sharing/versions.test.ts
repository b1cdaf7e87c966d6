import { ItemDocument, VersionList } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { anonymousAgent, createShare, unlock, type ShareAttributes } from './sharing-harness';

const PASSWORD = 'a shared secret';

describeEachDatabase('share links: a file’s versions', (kind) => {
  let t: TestApp;
  let owner: TestAgent;
  const ids = {} as Record<
    'shared' | 'workshop' | 'vault' | 'outside' | 'file' | 'other' | 'locked' | 'secret',
    string
  >;
  let visitorLink: ShareAttributes;
  let editorLink: ShareAttributes;
  let protectedLink: ShareAttributes;
  let fileLink: ShareAttributes;

  /** A file of the folder saved as `saves` say, one after the other (the later ones replace it). */
  const saved = async (name: string, parentId: string, saves: string[]) => {
    const first = await uploaded(owner, Buffer.from(saves[0]!), { name, parentId });
    for (const save of saves.slice(1))
      await uploaded(owner, Buffer.from(save), { name, parentId, conflict: 'replace' });
    return first.id;
  };
  const listed = async (agent: TestAgent, url: string) => {
    const answer = await agent.get(url);
    expect(answer.statusCode, answer.body).toBe(200);
    return VersionList.parse(answer.json()).data;
  };

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    ({ agent: owner } = await signedInAgent(t.app));
    const folder = async (name: string, parentId: string | null = null) =>
      (await owner.post('/api/create-folder', { name, parent_id: parentId })).json().data.id as string;
    // Drawings (a visitor's link) holds bracket.step and Workshop (an editor's link) with plate.step.
    ids.shared = await folder('Drawings');
    ids.workshop = await folder('Workshop', ids.shared);
    ids.vault = await folder('Vault');
    ids.outside = await folder('Private');
    ids.file = await saved('bracket.step', ids.shared, ['first save', 'second save', 'third save']);
    ids.other = await saved('plate.step', ids.workshop, ['plate one', 'plate two']);
    ids.locked = await saved('locked.step', ids.vault, ['locked one', 'locked two']);
    ids.secret = await saved('secret.step', ids.outside, ['secret one', 'secret two']);
    visitorLink = await createShare(owner, { id: ids.shared, type: 'folder', permission: 'visitor' });
    editorLink = await createShare(owner, { id: ids.workshop, type: 'folder', permission: 'editor' });
    protectedLink = await createShare(owner, {
      id: ids.vault,
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: PASSWORD,
    });
    fileLink = await createShare(owner, { id: ids.file, type: 'file', permission: 'visitor' });
  });
  afterAll(() => t.close());

  it('lists a file’s versions to a visitor as the owner sees them, and sends any of them, with Range', async () => {
    const visitor = await anonymousAgent(t.app);
    const seen = await listed(visitor, `/api/sharing/versions/${ids.file}/${visitorLink.token}`);
    expect(seen).toEqual(await listed(owner, `/api/files/${ids.file}/versions`));
    expect(seen.map((v) => v.attributes.current)).toEqual([true, false, false]);

    const first = seen[2]!;
    const bytes = await visitor.get(`/api/sharing/version/${ids.file}/${first.id}/${visitorLink.token}`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toBe('first save');
    expect(bytes.headers['content-disposition']).toMatch(/^inline/);
    const part = await visitor.get(`/api/sharing/version/${ids.file}/${first.id}/${visitorLink.token}`, {
      headers: { range: 'bytes=6-9' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('save');
    const attached = await visitor.get(
      `/api/sharing/version/${ids.file}/${first.id}/${visitorLink.token}?download=1`,
    );
    expect(attached.headers['content-disposition']).toMatch(/^attachment/);
    expect(attached.body).toBe('first save');

    // A link to the file itself reads its versions too.
    expect(await listed(visitor, `/api/sharing/versions/${ids.file}/${fileLink.token}`)).toEqual(seen);
  });

  it('refuses a visitor’s restore and delete with 403, and keeps every version', async () => {
    const visitor = await anonymousAgent(t.app);
    const before = await listed(owner, `/api/files/${ids.file}/versions`);
    const kept = before[1]!.id;
    const restore = await visitor.post(
      `/api/sharing/version/${ids.file}/${kept}/restore/${visitorLink.token}`,
    );
    expect(restore.statusCode).toBe(403);
    const remove = await visitor.delete(`/api/sharing/version/${ids.file}/${kept}/${visitorLink.token}`);
    expect(remove.statusCode).toBe(403);
    const overridden = await visitor.post(`/api/sharing/version/${ids.file}/${kept}/${visitorLink.token}`, {
      _method: 'delete',
    });
    expect(overridden.statusCode).toBe(403);
    expect(await listed(owner, `/api/files/${ids.file}/versions`)).toEqual(before);
  });

  it('lets an editor restore a version (the current bytes become a version) and delete one', async () => {
    const editor = await anonymousAgent(t.app);
    const url = (rest: string) => `/api/sharing/version/${ids.other}/${rest}${editorLink.token}`;
    const [current, first] = await listed(editor, `/api/sharing/versions/${ids.other}/${editorLink.token}`);
    const restored = await editor.post(url(`${first!.id}/restore/`));
    expect(restored.statusCode, restored.body).toBe(200);
    expect(ItemDocument.parse(restored.json()).data.id).toBe(ids.other);
    expect((await owner.get(`/file/${ids.other}`)).body).toBe('plate one');
    const after = await listed(owner, `/api/files/${ids.other}/versions`);
    expect(after.map((v) => [v.id, v.attributes.current])).toEqual([
      [first!.id, true],
      [current!.id, false],
    ]);
    expect((await editor.get(url(`${current!.id}/`))).body).toBe('plate two');

    const removed = await editor.delete(url(`${current!.id}/`));
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await listed(owner, `/api/files/${ids.other}/versions`)).map((v) => v.id)).toEqual([first!.id]);
    // The current bytes are not a version to delete.
    expect((await editor.delete(url(`${first!.id}/`))).statusCode).toBe(422);
  });

  it('answers 404 for a file outside the share and for a version of another file', async () => {
    const visitor = await anonymousAgent(t.app);
    const editor = await anonymousAgent(t.app);
    const [, secretVersion] = await listed(owner, `/api/files/${ids.secret}/versions`);
    const [, fileVersion] = await listed(owner, `/api/files/${ids.file}/versions`);
    for (const token of [visitorLink.token, editorLink.token]) {
      expect((await visitor.get(`/api/sharing/versions/${ids.secret}/${token}`)).statusCode).toBe(404);
      expect(
        (await visitor.get(`/api/sharing/version/${ids.secret}/${secretVersion!.id}/${token}`)).statusCode,
      ).toBe(404);
      // A version of the secret file, asked for under a file inside the share.
      expect(
        (await visitor.get(`/api/sharing/version/${ids.file}/${secretVersion!.id}/${token}`)).statusCode,
      ).toBe(404);
    }
    // The file link reaches its file only, never its neighbours.
    expect((await visitor.get(`/api/sharing/versions/${ids.other}/${fileLink.token}`)).statusCode).toBe(404);
    const secretBefore = await listed(owner, `/api/files/${ids.secret}/versions`);
    const restore = await editor.post(
      `/api/sharing/version/${ids.secret}/${secretVersion!.id}/restore/${editorLink.token}`,
    );
    expect(restore.statusCode).toBe(404);
    const crossed = await editor.post(
      `/api/sharing/version/${ids.other}/${fileVersion!.id}/restore/${editorLink.token}`,
    );
    expect(crossed.statusCode).toBe(404);
    const remove = await editor.delete(
      `/api/sharing/version/${ids.secret}/${secretVersion!.id}/${editorLink.token}`,
    );
    expect(remove.statusCode).toBe(404);
    expect(await listed(owner, `/api/files/${ids.secret}/versions`)).toEqual(secretBefore);
  });

  it('needs a protected link’s password first, and answers a revoked link as its other calls do', async () => {
    const visitor = await anonymousAgent(t.app);
    const url = `/api/sharing/versions/${ids.locked}/${protectedLink.token}`;
    expect((await visitor.get(url)).statusCode).toBe(401);
    await unlock(visitor, protectedLink.token, PASSWORD);
    expect((await listed(visitor, url)).length).toBe(2);

    const revoked = await createShare(owner, { id: ids.secret, type: 'file', permission: 'visitor' });
    await owner.post('/api/share/revoke', { tokens: [revoked.token], _method: 'delete' });
    const gone = await visitor.get(`/api/sharing/versions/${ids.secret}/${revoked.token}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().code).toBe('share_revoked');
    expect((await visitor.get(`/api/sharing/versions/${ids.file}/no-such-token`)).statusCode).toBe(404);
  });
});
