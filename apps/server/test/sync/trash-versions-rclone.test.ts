import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import {
  basic,
  davCalls,
  startDavServer,
  type DavAccount,
  type DavMethod,
  type DavTestServer,
} from '../webdav/webdav-harness';

const run = promisify(execFile);

/**
 * rclone, a WebDAV client that knows nothing of Nextcloud's trash and versions, reads them as the
 * plain collections they are: it lists the trash and a file's versions, downloads from both and
 * deletes a trash entry for good.
 */
for (const database of databaseKinds) {
  describe(`the trash and versions through rclone [${database}]`, () => {
    let server: DavTestServer;
    let account: DavAccount;
    let obscured: string;

    const dav = (method: DavMethod, path: string, payload?: string) =>
      davCalls(server).dav(basic(account.email, account.password), method, path, payload);
    const idOf = async (name: string) =>
      (
        await server.deps.database.db
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', account.user.id)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    /** rclone on a remote rooted at one of the user's Nextcloud collections. */
    const rclone = async (args: string[], collection: string, path = '') =>
      (
        await run(
          'rclone',
          [
            ...args,
            `:webdav,url='${server.origin}${collection}',vendor=nextcloud,user='${account.email}',pass='${obscured}':${path}`,
            '--retries',
            '1',
            '--config',
            '/dev/null',
          ],
          { timeout: 60_000 },
        )
      ).stdout;

    beforeAll(async () => {
      server = await startDavServer(database, 'local');
      account = await server.account();
      obscured = (await run('rclone', ['obscure', account.password])).stdout.trim();
      for (const [path, text] of [
        ['/dav/files/plan.txt', 'first plan'],
        ['/dav/files/plan.txt', 'second plan!'],
        ['/dav/files/gone.txt', 'gone for now'],
        ['/dav/files/lost.txt', 'lost for good'],
      ] as const)
        expect((await dav('PUT', path, text)).statusCode).toBeLessThan(300);
      for (const path of ['/dav/files/gone.txt', '/dav/files/lost.txt'])
        expect((await dav('DELETE', path)).statusCode).toBe(204);
    });
    afterAll(() => server.close());

    it('lists the trash, downloads a trashed file and deletes one for good', async () => {
      const trash = `/remote.php/dav/trashbin/${account.email}/trash/`;
      const [gone, lost] = [await idOf('gone.txt'), await idOf('lost.txt')];
      const listed = JSON.parse(await rclone(['lsjson'], trash)) as { Name: string; Size: number }[];
      expect(listed.map((entry) => [entry.Name, entry.Size]).sort()).toEqual(
        [
          [gone, 12],
          [lost, 13],
        ].sort(),
      );
      expect(await rclone(['cat'], trash, gone)).toBe('gone for now');
      await rclone(['deletefile'], trash, lost);
      expect(await server.deps.items.findOne(account.user.id, lost)).toBeUndefined();
      expect((JSON.parse(await rclone(['lsjson'], trash)) as { Name: string }[]).map((e) => e.Name)).toEqual([
        gone,
      ]);
    }, 120_000);

    it("lists a file's versions and downloads each", async () => {
      const versions = `/remote.php/dav/versions/${account.email}/versions/${await idOf('plan.txt')}/`;
      const listed = JSON.parse(await rclone(['lsjson'], versions)) as { Name: string; Size: number }[];
      expect(listed.map((entry) => entry.Size).sort()).toEqual([10, 12]);
      const texts = await Promise.all(listed.map((entry) => rclone(['cat'], versions, entry.Name)));
      expect(texts.sort()).toEqual(['first plan', 'second plan!']);
    }, 120_000);
  });
}
