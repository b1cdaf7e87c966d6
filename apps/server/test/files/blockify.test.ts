import { VersionList } from '@atelier/contracts';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { blockifyJob } from '../../src/modules/files/files.jobs';
import type { TestAgent } from '../support/agent';
import { basic } from '../webdav/webdav-harness';
import { signedInAgent } from '../support/factories';
import {
  createFilesTestApp,
  filesMatrix,
  multipartBody,
  readZip,
  uploaded,
  type FilesTestApp,
} from './files-harness';

const MiB = 1024 * 1024;
/**
 * Noise fixed by `seed` (AES in counter mode over zeros): where the chunker cuts it, and so how many
 * bytes a change adds, is the same on every run, as it is not for random bytes.
 */
const noise = (seed: number, length: number) =>
  createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16)).update(Buffer.alloc(length));
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

for (const [database, storage] of filesMatrix) {
  describe(`blockify [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let owner: UserRow;
    let now = new Date('2026-04-01T10:00:00Z');

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, { chunk_size: 2 * MiB }, () => now);
      ({ agent, user: owner } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const db = () => t.deps.database.db;
    const contentOf = async (itemId: string) => {
      const item = await db()
        .selectFrom('items')
        .selectAll()
        .where('id', '=', itemId)
        .executeTakeFirstOrThrow();
      return db()
        .selectFrom('file_contents')
        .selectAll()
        .where('id', '=', item.content_id!)
        .executeTakeFirstOrThrow();
    };
    const blockify = async (itemId: string) =>
      t.deps.blockifier.blockify((await contentOf(itemId)).storage_key);
    const objectKeys = async () => (await t.storedObjects()).map((path) => path.split('/').pop()!);
    const ownerBlocks = () => db().selectFrom('blocks').selectAll().where('user_id', '=', owner.id).execute();
    const listOf = (contentId: string) =>
      db()
        .selectFrom('content_blocks')
        .selectAll()
        .where('content_id', '=', contentId)
        .orderBy('position')
        .execute();

    it('makes an uploaded file blocks: served whole, by ranges across blocks and zipped, its object gone', async () => {
      const data = randomBytes(7 * MiB + 12345);
      const file = await uploaded(agent, data, { name: 'part.step' });
      const before = await contentOf(file.id);
      expect(before.layout).toBe('object');
      expect(await objectKeys()).toContain(before.storage_key);

      expect(await blockify(file.id)).toBe('blocks');
      const after = await contentOf(file.id);
      expect([after.layout, after.sha256, after.storage_key]).toEqual([
        'blocks',
        sha(data),
        before.storage_key,
      ]);
      expect(await objectKeys()).not.toContain(before.storage_key);
      const list = await listOf(after.id);
      expect(list.length).toBeGreaterThan(2);
      // Again: nothing to do.
      expect(await blockify(file.id)).toBe('done');

      const whole = await agent.get(`/file/${file.id}`);
      expect(whole.statusCode).toBe(200);
      expect(sha(whole.rawPayload)).toBe(sha(data));
      const boundary = Number(list[1]!.offset);
      for (const [start, end] of [
        [boundary - 10, boundary + 9],
        [boundary - 1, Number(list[2]!.offset)],
        [0, boundary],
        [Number(list.at(-1)!.offset) - 1, data.length - 1],
        [5, data.length - 6],
      ] as const) {
        const answer = await agent.get(`/file/${file.id}`, { headers: { range: `bytes=${start}-${end}` } });
        expect(answer.statusCode, `${start}-${end}`).toBe(206);
        expect(Buffer.compare(answer.rawPayload, data.subarray(start, end + 1)), `${start}-${end}`).toBe(0);
      }
      const zip = readZip((await agent.get(`/api/zip?items=${file.id}|file`)).rawPayload);
      expect(sha(zip.get('part.step')!)).toBe(sha(data));
    });

    it('answers the last chunk of a file sent again after the file became blocks with that file', async () => {
      const data = randomBytes(2 * MiB + 100);
      const key = `${randomBytes(8).toString('hex')}-again.bin.part`;
      const send = (start: number, end: number) => {
        const { payload, headers } = multipartBody([
          { field: 'name', value: 'again.bin' },
          { field: 'offset', value: String(start) },
          { field: 'is_last_chunk', value: end >= data.length ? '1' : '0' },
          { file: 'chunk', filename: key, data: data.subarray(start, end) },
        ]);
        return agent.post('/api/upload/chunks', payload, { headers });
      };
      expect((await send(0, 2 * MiB)).statusCode).toBe(204);
      const last = await send(2 * MiB, data.length);
      expect(last.statusCode).toBe(201);
      const id = last.json().data.id as string;
      expect(await blockify(id)).toBe('blocks');
      // Its answer was lost: the same bytes again are recognised in the blocks.
      const again = await send(2 * MiB, data.length);
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().data.id).toBe(id);
    });

    it('makes thumbnails of an image stored as blocks', async () => {
      const noise = await sharp(randomBytes(900 * 900 * 3), { raw: { width: 900, height: 900, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(noise.length).toBeGreaterThan(MiB);
      const image = await uploaded(agent, noise, { name: 'noise.png' });
      expect(await blockify(image.id)).toBe('blocks');
      expect(await t.deps.thumbnails.generate(image.id)).toBe(true);
      const small = await agent.get(`/thumbnail/sm/${image.id}`);
      expect(small.statusCode).toBe(200);
      expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 256, height: 256 });
    });

    it(
      'stores two versions that share most of their bytes once, and restores and trashes them whole',
      { timeout: 120_000 },
      async () => {
        const v1 = noise(1, 9 * MiB);
        const v2 = Buffer.from(v1);
        // A few bytes changed in one place, and some inserted in another.
        v2.fill(7, 3 * MiB, 3 * MiB + 100);
        const v2b = Buffer.concat([v2.subarray(0, 6 * MiB), noise(2, 5000), v2.subarray(6 * MiB)]);
        const file = await uploaded(agent, v1, { name: 'assembly.step' });
        await blockify(file.id);
        const blocksBefore = await ownerBlocks();
        const bytesBefore = blocksBefore.reduce((sum, block) => sum + Number(block.size), 0);
        now = new Date(now.getTime() + 60_000);
        await uploaded(agent, v2b, { name: 'assembly.step', conflict: 'replace' });
        await blockify(file.id);
        const added = (await ownerBlocks()).filter((block) => !blocksBefore.some((b) => b.id === block.id));
        // Only the blocks around the two changes are new: far less than the file.
        expect(added.length).toBeGreaterThan(0);
        expect(added.length).toBeLessThanOrEqual(6);
        expect(added.reduce((sum, block) => sum + Number(block.size), 0)).toBeLessThan(v1.length / 2);
        expect(bytesBefore).toBeGreaterThanOrEqual(v1.length);

        const versions = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
        expect(versions).toHaveLength(2);
        const old = versions.find((v) => !v.attributes.current)!;
        expect(sha((await agent.get(`/api/files/${file.id}/versions/${old.id}`)).rawPayload)).toBe(sha(v1));
        expect((await agent.post(`/api/files/${file.id}/versions/${old.id}/restore`)).statusCode).toBe(200);
        expect(sha((await agent.get(`/file/${file.id}`)).rawPayload)).toBe(sha(v1));

        // Trash and back: the blocks stay, the file reads whole.
        const remove = (force: boolean) =>
          agent.post('/api/remove', { items: [{ id: file.id, type: 'file', force_delete: force }] });
        expect((await remove(false)).statusCode).toBe(204);
        expect(
          (await agent.post('/api/trash/restore', { to_home: false, items: [{ id: file.id, type: 'file' }] }))
            .statusCode,
        ).toBe(204);
        expect(sha((await agent.get(`/file/${file.id}`)).rawPayload)).toBe(sha(v1));
        const after = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
        const other = after.find((v) => !v.attributes.current)!;
        expect(sha((await agent.get(`/api/files/${file.id}/versions/${other.id}`)).rawPayload)).toBe(
          sha(v2b),
        );
      },
    );

    it("copies a file made of blocks by naming its blocks (WebDAV COPY, a project's model): no byte written", async () => {
      const data = noise(11, 5 * MiB + 777);
      const file = await uploaded(agent, data, { name: 'bracket.stl', chunkSize: 2 * MiB });
      expect(await blockify(file.id)).toBe('blocks');
      const source = await contentOf(file.id);
      const blocks = (await listOf(source.id)).map((entry) => entry.block_id);
      const objects = (await objectKeys()).length;
      const blockRows = (await ownerBlocks()).length;
      const used = (await t.deps.limits.of(owner.id)).used;

      const { password } = await t.deps.appPasswords.create(owner.id, { name: 'copy' });
      const copied = await t.app.inject({
        method: 'COPY',
        url: '/dav/files/bracket.stl',
        headers: { authorization: basic(owner.email, password), destination: '/dav/files/bracket-copy.stl' },
      });
      expect(copied.statusCode, copied.body).toBe(201);
      const davCopy = (await t.deps.items.findLiveChild(owner.id, null, 'bracket-copy.stl'))!;

      const project = (await agent.post('/api/create-project', { project_name: 'Bracket' })).json<{
        id: string;
      }>();
      const added = await agent.post(`/api/projects/${project.id}/inputs`, { items: [file.id] });
      expect(added.statusCode, added.body).toBeLessThan(300);
      const projectCopy = (
        await db()
          .selectFrom('items')
          .select('id')
          .where('user_id', '=', owner.id)
          .where('name', '=', 'bracket.stl')
          .where('id', '!=', file.id)
          .executeTakeFirstOrThrow()
      ).id;

      for (const copy of [davCopy.id, projectCopy]) {
        const content = await contentOf(copy);
        expect(content.id).not.toBe(source.id);
        expect(content.layout).toBe('blocks');
        expect((await listOf(content.id)).map((entry) => entry.block_id)).toEqual(blocks);
        const read = await agent.get(`/file/${copy}`);
        expect(sha(read.rawPayload)).toBe(sha(data));
      }
      // Nothing was written: no object, no block; each copy counts in the quota as a file does.
      expect((await objectKeys()).length).toBe(objects);
      expect((await ownerBlocks()).length).toBe(blockRows);
      expect((await t.deps.limits.of(owner.id)).used).toBe(used + 2 * data.length);
      // Deleting the original for good leaves the copies whole.
      await agent.post('/api/remove', { items: [{ id: file.id, type: 'file', force_delete: true }] });
      expect(sha((await agent.get(`/file/${davCopy.id}`)).rawPayload)).toBe(sha(data));
    });

    it('migrates a content stored before the block store by the sweep, in batches, once it is old enough', async () => {
      const data = randomBytes(3 * MiB);
      const file = await uploaded(agent, data, { name: 'legacy.stl' });
      const content = await contentOf(file.id);
      const enqueued: string[] = [];
      const sweep = (at: Date) =>
        t.deps.blockifier.sweep(at, 10 * 60_000, 1000, async (key) => {
          enqueued.push(key);
        });
      // Too young: left to the job its upload enqueued.
      await sweep(new Date(now.getTime() + 60_000));
      expect(enqueued).not.toContain(content.storage_key);
      await sweep(new Date(now.getTime() + 11 * 60_000));
      expect(enqueued).toContain(content.storage_key);
      // The job's payload is the key the sweep found.
      expect(blockifyJob.payload.parse({ storageKey: content.storage_key })).toBeTruthy();
      for (const key of enqueued) await t.deps.blockifier.blockify(key);
      expect((await contentOf(file.id)).layout).toBe('blocks');
      enqueued.length = 0;
      await sweep(new Date(now.getTime() + 11 * 60_000));
      expect(enqueued).not.toContain(content.storage_key);
      expect(sha((await agent.get(`/file/${file.id}`)).rawPayload)).toBe(sha(data));
    });

    it('enqueues the blockify job with every file it files, and the job makes the file blocks', async () => {
      const data = randomBytes(MiB);
      const file = await uploaded(agent, data, { name: 'queued.bin' });
      const key = (await contentOf(file.id)).storage_key;
      const worker = t.deps.jobs.startWorker({ definitions: [blockifyJob], services: t.deps });
      try {
        await expect
          .poll(async () => (await contentOf(file.id)).layout, { timeout: 30_000, interval: 100 })
          .toBe('blocks');
      } finally {
        await worker.close();
      }
      expect(await objectKeys()).not.toContain(key);
      expect(sha((await agent.get(`/file/${file.id}`)).rawPayload)).toBe(sha(data));
    });
  });
}
