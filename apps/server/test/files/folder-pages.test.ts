import { ItemList } from '@atelier/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/modules/files/files.access';
import type { TestAgent } from '../support/agent';
import { databaseKinds } from '../support/databases';
import { signedInAgent } from '../support/factories';
import { createFilesTestApp, uploaded, type FilesTestApp } from './files-harness';

const ORDERS = [
  'sort=name&direction=asc',
  'sort=created_at&direction=desc',
  'sort=filesize&direction=desc',
  'sort=updated_at&direction=asc',
];

// A folder's pages read by cursor (keyset) go through the folder in the same order as pages read by
// number, never repeat or skip an item however the folder changes between pages, and stay inside
// what the caller may see. The clock stands still, so every date ties and the id decides.
for (const database of databaseKinds) {
  describe(`folder pages by cursor [${database}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let ownerId: string;
    const stillClock = () => new Date('2026-06-01T12:00:00.000Z');

    beforeAll(async () => {
      t = await createFilesTestApp(database, 'local', {}, stillClock);
      let user;
      ({ agent, user } = await signedInAgent(t.app));
      ownerId = user.id;
    });
    afterAll(() => t.close());

    async function list(url: string) {
      const res = await agent.get(url);
      expect(res.statusCode, res.body).toBe(200);
      return ItemList.parse(res.json());
    }
    async function newFolder(name: string, parentId: string | null = null, as = agent) {
      const res = await as.post('/api/create-folder', { name, parent_id: parentId });
      expect(res.statusCode).toBe(201);
      return res.json().data.id as string;
    }
    /** Every page of a folder by cursor, `perPage` items at a time. */
    async function byCursor(url: string, perPage: number) {
      const ids: string[] = [];
      let cursor: string | null | undefined = null;
      for (let page = 1; page < 100; page++) {
        const listed = await list(
          `${url}&per_page=${perPage}&page=${page}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        ids.push(...listed.data.map((item) => item.id));
        cursor = listed.meta.next_cursor;
        if (!cursor) return ids;
      }
      throw new Error('the pages never ended');
    }

    it('reads a folder in the same order as numbered pages, ties on names, dates and sizes broken alike', async () => {
      const box = await newFolder('Ties');
      // One name to the sort in five spellings (a folder holds no two items of one name).
      for (const name of ['Same', 'same', 'SAME', 'sAme', 'saMe']) await newFolder(name, box);
      for (let i = 0; i < 6; i++)
        await uploaded(agent, Buffer.alloc(32, i), { name: `same-${i}.bin`, parentId: box });
      for (const order of ORDERS) {
        const url = `/api/browse/folders/${box}?${order}`;
        const whole = (await list(`${url}&per_page=500`)).data.map((item) => item.id);
        expect(whole).toHaveLength(11);
        // Pages of 2 cross from folders to files inside a page, of 5 exactly at the boundary.
        for (const perPage of [1, 2, 5, 11]) expect(await byCursor(url, perPage), order).toEqual(whole);
      }
    });

    it('never repeats or skips an item when items come and go between pages', async () => {
      const box = await newFolder('Moving');
      const names = ['b', 'd', 'f', 'h', 'j'];
      const ids = new Map<string, string>();
      for (const name of names) ids.set(name, await newFolder(name, box));
      const url = `/api/browse/folders/${box}?sort=name&direction=asc&per_page=2`;
      const first = await list(`${url}&page=1`);
      expect(first.data.map((item) => item.attributes.name)).toEqual(['b', 'd']);

      // Before the page seen (a), after it (e), and one not yet seen goes (f).
      await newFolder('a', box);
      await newFolder('e', box);
      const removed = await agent.post('/api/remove', { items: [{ id: ids.get('f'), type: 'folder' }] });
      expect(removed.statusCode).toBe(204);

      const cursor = encodeURIComponent(first.meta.next_cursor!);
      const second = await list(`${url}&page=2&cursor=${cursor}`);
      expect(second.data.map((item) => item.attributes.name)).toEqual(['e', 'h']);
      expect(second.meta.paginate).toEqual({ current_page: 2, per_page: 2, total: 6, last_page: 3 });
      // A numbered page would have shown 'd' again, the item the offset moved back onto.
      expect((await list(`${url}&page=2`)).data.map((item) => item.attributes.name)).toEqual(['d', 'e']);
    });

    it("pages only what the caller may see: a cursor names a place in an order, never someone else's items", async () => {
      const box = await newFolder('Private');
      for (const name of ['one', 'two', 'three']) await newFolder(name, box);
      const cursor = (await list(`/api/browse/folders/${box}?sort=name&direction=asc&per_page=1`)).meta
        .next_cursor!;

      const stranger = (await signedInAgent(t.app)).agent;
      const query = `sort=name&direction=asc&per_page=10&cursor=${encodeURIComponent(cursor)}`;
      expect((await stranger.get(`/api/browse/folders/${box}?${query}`)).statusCode).toBe(404);
      const own = await newFolder('Own', null, stranger);
      await newFolder('zebra', own, stranger);
      const res = await stranger.get(`/api/browse/folders/${own}?${query}`);
      expect(res.statusCode).toBe(200);
      expect(ItemList.parse(res.json()).data.map((item) => item.attributes.name)).toEqual(['zebra']);

      // A visitor confined to one folder, with a cursor of the owner's root: only that folder's items.
      const visitor: Actor = {
        ownerId,
        userId: null,
        rootId: box,
        canWrite: false,
        shareToken: null,
        uploadRequestId: null,
      };
      const rootCursor = (await list('/api/browse/folders/all?sort=name&direction=asc&per_page=1')).meta
        .next_cursor!;
      const seen = await t.deps.files.browseFolder(visitor, 'all', {
        sort: 'name',
        direction: 'asc',
        page: 2,
        per_page: 50,
        cursor: rootCursor,
      });
      expect(seen.data.length).toBeGreaterThan(0);
      expect(seen.data.every((item) => item.attributes.parent_id === box)).toBe(true);
    });

    it('refuses a cursor that is not one, or one of another order, with 422 naming it', async () => {
      const box = await newFolder('Refusals');
      await newFolder('x', box);
      await newFolder('y', box);
      const cursor = (await list(`/api/browse/folders/${box}?sort=name&direction=asc&per_page=1`)).meta
        .next_cursor!;
      for (const query of [
        'sort=name&direction=asc&cursor=not-a-cursor',
        `sort=name&direction=desc&cursor=${encodeURIComponent(cursor)}`,
        `sort=filesize&direction=asc&cursor=${encodeURIComponent(cursor)}`,
        `sort=name&direction=asc&cursor=${Buffer.from('["name","asc","file",{},"x"]').toString('base64url')}`,
        // A name PostgreSQL cannot compare, hidden inside the cursor's text.
        `sort=name&direction=asc&cursor=${Buffer.from('["name","asc","file","a\\u0000b","x"]').toString('base64url')}`,
        // A date no database would take for one.
        `sort=created_at&direction=desc&cursor=${Buffer.from('["created_at","desc","file","2026-02-30T00:00:00.000Z","x"]').toString('base64url')}`,
      ]) {
        const res = await agent.get(`/api/browse/folders/${box}?${query}`);
        expect(res.statusCode, query).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['cursor']);
      }
    });

    it('keeps every folder count right through uploads, moves, trash, restore and deletion', async () => {
      const top = await newFolder('Counted');
      const inner = await newFolder('Inner', top);
      const deeper = await newFolder('Deeper', inner);
      const file = await uploaded(agent, Buffer.alloc(16, 1), { name: 'f.bin', parentId: inner });
      await uploaded(agent, Buffer.alloc(16, 2), { name: 'g.bin', parentId: deeper });
      const expectCounts = async () => {
        const { db } = t.deps.database;
        const counted = await sql<{ folder_key: string; n: number }>`
          select coalesce(parent_id, '') as folder_key, count(*) as n from items
          where user_id = ${ownerId} and deleted_at is null group by coalesce(parent_id, '')`.execute(db);
        const kept = await db
          .selectFrom('folder_counts')
          .select(['folder_key', sql<number>`folders + files`.as('n')])
          .where('user_id', '=', ownerId)
          .execute();
        const nonZero = (rows: { folder_key: string; n: number }[]) =>
          Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.folder_key, Number(r.n)]));
        expect(nonZero(kept)).toEqual(nonZero(counted.rows));
        // No row outlives its folder.
        const orphans = await db
          .selectFrom('folder_counts')
          .select('folder_key')
          .where('user_id', '=', ownerId)
          .where('folder_key', '!=', '')
          .where((eb) =>
            eb.not(eb.exists(eb.selectFrom('items').select('id').whereRef('id', '=', 'folder_key'))),
          )
          .execute();
        expect(orphans).toEqual([]);
      };
      const itemsOf = async (id: string) =>
        (await list(`/api/browse/folders/${top}?per_page=50`)).data.find((item) => item.id === id)?.attributes
          .items;

      await expectCounts();
      expect(await itemsOf(inner)).toBe(2);
      expect(
        (await agent.post('/api/move', { to_id: top, items: [{ id: file.id, type: 'file' }] })).statusCode,
      ).toBe(204);
      await expectCounts();
      expect(await itemsOf(inner)).toBe(1);
      expect((await agent.post('/api/remove', { items: [{ id: inner, type: 'folder' }] })).statusCode).toBe(
        204,
      );
      await expectCounts();
      expect((await list(`/api/browse/folders/${top}?per_page=50`)).meta.paginate.total).toBe(1);
      expect(
        (await agent.post('/api/trash/restore', { items: [{ id: inner, type: 'folder' }] })).statusCode,
      ).toBe(204);
      await expectCounts();
      expect(await itemsOf(inner)).toBe(1);
      const gone = await agent.post('/api/remove', {
        items: [{ id: inner, type: 'folder', force_delete: true }],
      });
      expect(gone.statusCode).toBe(204);
      await expectCounts();
      expect((await list(`/api/browse/folders/${top}?per_page=50`)).meta.paginate.total).toBe(1);
    });
  });
}
