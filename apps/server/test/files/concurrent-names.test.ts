import { ItemList, VersionList } from '@atelier/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { basic } from '../webdav/webdav-harness';
import { uploaded } from './files-harness';

/** Uploads sent together, each on a connection of the pool of its own. */
const TOGETHER = 12;

for (const kind of databaseKinds) {
  describe(`uploads of one name into one folder at the same instant [${kind}]`, () => {
    let t: TestApp;
    let agent: TestAgent;

    beforeAll(async () => {
      t = await createTestApp({ database: kind });
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const names = async (folderId: string) =>
      ItemList.parse((await agent.get(`/api/browse/folders/${folderId}`)).json())
        .data.map((item) => item.attributes.name)
        .sort();

    it('keeps every file under a name of its own', async () => {
      const folder = (await agent.post('/api/create-folder', { name: 'Drop' })).json().data.id as string;
      await uploaded(agent, Buffer.from('first'), { name: 'plan.step', parentId: folder });
      const sent = await Promise.all(
        Array.from({ length: TOGETHER }, (_, n) =>
          uploaded(agent, Buffer.from(`copy ${n}`), { name: 'plan.step', parentId: folder }),
        ),
      );
      const expected = [
        'plan.step',
        ...Array.from({ length: TOGETHER }, (_, n) => `plan (${n + 1}).step`),
      ].sort();
      expect(await names(folder)).toEqual(expected);
      expect(new Set(sent.map((file) => file.attributes.name)).size).toBe(TOGETHER);
    });

    it('makes one file of replaces of a name nobody holds yet, the others its versions', async () => {
      const folder = (await agent.post('/api/create-folder', { name: 'Fresh' })).json().data.id as string;
      const sent = await Promise.all(
        Array.from({ length: TOGETHER }, (_, n) =>
          uploaded(agent, Buffer.from(`save ${n}`), {
            name: 'model.stl',
            parentId: folder,
            conflict: 'replace',
          }),
        ),
      );
      expect(await names(folder)).toEqual(['model.stl']);
      expect(new Set(sent.map((file) => file.id)).size).toBe(1);
      const versions = await agent.get(`/api/files/${sent[0]!.id}/versions`);
      expect(VersionList.parse(versions.json()).data).toHaveLength(TOGETHER);
    });

    it('leaves one live item of a name that WebDAV MOVEs and PUTs write at the same instant', async () => {
      const { user } = await signedInAgent(t.app);
      const { password } = await t.deps.appPasswords.create(user.id, { name: 'dav' });
      const dav = (method: string, path: string, headers: Record<string, string> = {}, payload?: string) =>
        t.app.inject({
          method: method as 'PUT',
          url: `/dav/files/Moves/${path}`,
          payload,
          headers: { authorization: basic(user.email, password), ...headers },
        });
      expect(
        (
          await t.app.inject({
            method: 'MKCOL',
            url: '/dav/files/Moves',
            headers: { authorization: basic(user.email, password) },
          })
        ).statusCode,
      ).toBe(201);
      for (let n = 0; n < TOGETHER; n++)
        expect((await dav('PUT', `from-${n}.bin`, {}, `moved ${n}`)).statusCode).toBe(201);
      const answers = await Promise.all([
        ...Array.from({ length: TOGETHER }, (_, n) =>
          dav('MOVE', `from-${n}.bin`, { destination: '/dav/files/Moves/target.bin', overwrite: 'T' }),
        ),
        ...Array.from({ length: TOGETHER / 2 }, (_, n) => dav('PUT', 'target.bin', {}, `put ${n}`)),
      ]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(300);
      const live = await t.deps.database.db
        .selectFrom('items')
        .select('name')
        .where('user_id', '=', user.id)
        .where('deleted_at', 'is', null)
        .where('type', '=', 'file')
        .execute();
      expect(live.map((item) => item.name)).toEqual(['target.bin']);
    });
  });
}
