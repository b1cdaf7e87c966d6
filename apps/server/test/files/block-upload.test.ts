import { chunkBoundaries } from '@atelier/chunker';
import {
  BlocksMissing,
  ErrorBody,
  ItemDocument,
  ItemList,
  TeamFolderDocument,
  VersionList,
} from '@atelier/contracts';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Response } from 'light-my-request';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import { blockRepackJob } from '../../src/modules/files/files.jobs';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import { chunkRequest, createFilesTestApp, filesMatrix, type FilesTestApp } from './files-harness';

const MiB = 1024 * 1024;
const HOUR = 60 * 60_000;

interface Block {
  hash: string;
  bytes: Buffer;
}

/** The file cut as the web client cuts it (@atelier/chunker), each block named by its SHA-256. */
function blocksOf(data: Buffer): Block[] {
  let start = 0;
  return chunkBoundaries(data).map((end) => {
    const bytes = data.subarray(start, end);
    start = end;
    return { hash: sha256(bytes), bytes };
  });
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes that look like a CAD export: random, so every block is its own. */
let modelSeed = 0;
/** Noise fixed by a seed that each call moves on (AES in counter mode over zeros): where the chunker cuts it is the same on every run. */
function modelBytes(size: number): Buffer {
  modelSeed += 1;
  return createCipheriv('aes-128-ctr', Buffer.alloc(16, modelSeed), Buffer.alloc(16)).update(
    Buffer.alloc(size),
  );
}

/** `data` with `count` runs of 64 bytes overwritten, spread over the file. */
function edited(data: Buffer, count: number): Buffer {
  const copy = Buffer.from(data);
  for (let i = 1; i <= count; i++) randomBytes(64).copy(copy, Math.floor((i * copy.length) / (count + 1)));
  return copy;
}

interface Target {
  name: string;
  parentId?: string;
  conflict?: 'keep-both' | 'replace';
}

for (const [database, storage] of filesMatrix) {
  describe(`delta upload [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;
    let owner: UserRow;
    /** How far the app's clock runs ahead of the real one (a long upload's days, with no waiting). */
    let ahead = 0;
    const now = () => new Date(Date.now() + ahead);
    const hoursOn = (hours: number) => (ahead = hours * HOUR);

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, {}, now);
      ({ agent, user: owner } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    const missing = (as: TestAgent, hashes: string[], parentId?: string) =>
      as.post('/api/upload/blocks/missing', { hashes, ...(parentId ? { parent_id: parentId } : {}) });
    const put = (as: TestAgent, hash: string, bytes: Buffer, parentId?: string) =>
      as.put(`/api/upload/blocks/${hash}${parentId ? `?parent_id=${parentId}` : ''}`, bytes, {
        headers: { 'content-type': 'application/octet-stream' },
      });
    const commit = (as: TestAgent, blocks: string[], size: number, target: Target) =>
      as.post('/api/upload/blocks/commit', {
        name: target.name,
        size,
        blocks,
        ...(target.parentId ? { parent_id: target.parentId } : {}),
        ...(target.conflict ? { conflict: target.conflict } : {}),
      });

    /** The web client's delta upload: ask, send what is missing, commit. */
    async function deltaUpload(as: TestAgent, data: Buffer, target: Target) {
      const blocks = blocksOf(data);
      const asked = await missing(
        as,
        blocks.map((b) => b.hash),
        target.parentId,
      );
      expect(asked.statusCode, asked.body).toBe(200);
      const wanted = BlocksMissing.parse(asked.json()).data.missing;
      let sentBytes = 0;
      for (const hash of wanted) {
        const block = blocks.find((b) => b.hash === hash)!;
        const sent = await put(as, hash, block.bytes, target.parentId);
        expect(sent.statusCode, sent.body).toBe(204);
        sentBytes += block.bytes.length;
      }
      const answer = await commit(
        as,
        blocks.map((b) => b.hash),
        data.length,
        target,
      );
      return { answer, wanted, sentBytes, blocks };
    }

    async function committed(as: TestAgent, data: Buffer, target: Target) {
      const upload = await deltaUpload(as, data, target);
      expect(upload.answer.statusCode, upload.answer.body).toBe(201);
      return { ...upload, file: ItemDocument.parse(upload.answer.json()).data };
    }

    const folder = async (name: string, as = agent) => {
      const made = await as.post('/api/create-folder', { name });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().data.id as string;
    };
    const names = async (folderId: string, as = agent) =>
      ItemList.parse((await as.get(`/api/browse/folders/${folderId}`)).json())
        .data.map((item) => item.attributes.name)
        .sort();
    const download = async (url: string, as = agent) => {
      const answer = await as.get(url);
      expect(answer.statusCode).toBe(200);
      return answer.rawPayload;
    };
    const used = async (userId = owner.id) => (await t.deps.limits.of(userId)).used;
    /** The hourly sweep of abandoned uploads, then the collection of blocks no file names, both now. */
    const sweeps = async () => {
      await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, now());
      await t.deps.blockCollector.collect(now());
    };

    /** Everything a refused call must leave as it was. */
    async function state(userId = owner.id) {
      const count = async (table: 'items' | 'file_contents' | 'blocks' | 'upload_sessions') =>
        Number(
          (
            await t.deps.database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const usage = await t.deps.database.db
        .selectFrom('storage_usage')
        .select(['used_bytes', 'reserved_bytes'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return {
        items: await count('items'),
        contents: await count('file_contents'),
        blocks: await count('blocks'),
        sessions: await count('upload_sessions'),
        used: Number(usage?.used_bytes ?? 0),
        reserved: Number(usage?.reserved_bytes ?? 0),
        objects: (await t.storedObjects()).length,
      };
    }

    it('files a new file from its blocks: all are missing at first, the bytes read back whole', async () => {
      const box = await folder('New by blocks');
      const data = modelBytes(3 * MiB + 12_345);
      const before = await used();
      const { file, wanted, blocks } = await committed(agent, data, { name: 'bracket.step', parentId: box });
      expect(blocks.length).toBeGreaterThan(1);
      expect(wanted).toEqual(blocks.map((b) => b.hash));
      expect(file.attributes).toMatchObject({ name: 'bracket.step', filesize: data.length });
      expect(Buffer.compare(await download(`/file/${file.id}`), data)).toBe(0);
      // Its size counts once it is filed, and no hold is left.
      expect(await used()).toBe(before + data.length);
      expect((await state()).reserved).toBe(0);
      // A Range read starts inside a later block.
      const range = await agent.get(`/file/${file.id}`, { headers: { range: 'bytes=1500000-1500099' } });
      expect(range.statusCode).toBe(206);
      expect(Buffer.compare(range.rawPayload, data.subarray(1_500_000, 1_500_100))).toBe(0);
    });

    it('a second save sends only the blocks that changed; replace keeps the first bytes as a version', async () => {
      const box = await folder('Second save');
      const first = modelBytes(8 * MiB);
      const { file } = await committed(agent, first, { name: 'housing.stl', parentId: box });
      const second = edited(first, 2);
      const save = await deltaUpload(agent, second, {
        name: 'housing.stl',
        parentId: box,
        conflict: 'replace',
      });
      expect(save.answer.statusCode, save.answer.body).toBe(201);
      const before = new Set(blocksOf(first).map((b) => b.hash));
      const changed = save.blocks.filter((b) => !before.has(b.hash));
      expect(save.wanted).toEqual(changed.map((b) => b.hash));
      expect(save.wanted.length).toBeGreaterThan(0);
      expect(save.wanted.length).toBeLessThan(save.blocks.length);
      expect(save.sentBytes).toBe(changed.reduce((sum, b) => sum + b.bytes.length, 0));

      const replaced = ItemDocument.parse(save.answer.json()).data;
      expect(replaced.id).toBe(file.id);
      expect(await names(box)).toEqual(['housing.stl']);
      expect(Buffer.compare(await download(`/file/${file.id}`), second)).toBe(0);
      const versions = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
      expect(versions.map((v) => [v.attributes.current, v.attributes.size])).toEqual([
        [true, second.length],
        [false, first.length],
      ]);
      const old = versions[1]!;
      expect(Buffer.compare(await download(`/api/files/${file.id}/versions/${old.id}`), first)).toBe(0);

      // Filed from blocks, its blockify job only records the whole file's hash, and with it enqueues
      // the packer's work for the bytes the save displaced (no worker runs here: it stays waiting).
      const waiting = async () => (await t.deps.jobs.counts([blockRepackJob.id])).waiting;
      const queued = await waiting();
      const { storage_key } = await t.deps.database.db
        .selectFrom('items')
        .select('storage_key')
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(await t.deps.blockifier.blockify(storage_key!)).toBe('hashed');
      expect(await waiting()).toBe(queued + 1);
    });

    it("a new file made of a version's blocks takes them from the versions' count at once", async () => {
      const { user } = await createUser(t.deps);
      const { agent: saver } = await signedInAgent(t.app, user);
      const versionBytes = async () =>
        Number(
          (
            await t.deps.database.db
              .selectFrom('storage_usage')
              .select(sql<number | string>`version_bytes`.as('bytes'))
              .where('user_id', '=', user.id)
              .executeTakeFirstOrThrow()
          ).bytes,
        );
      const first = modelBytes(3 * MiB);
      const other = modelBytes(MiB);
      await committed(saver, first, { name: 'plate.step' });
      await committed(saver, other, { name: 'plate.step', conflict: 'replace' });
      // The first bytes are the version's alone.
      expect([await used(user.id), await versionBytes()]).toEqual([4 * MiB, 3 * MiB]);

      // A file that shares nothing with the version leaves its count as it was.
      const unrelated = modelBytes(MiB);
      await committed(saver, unrelated, { name: 'washer.step' });
      expect([await used(user.id), await versionBytes()]).toEqual([5 * MiB, 3 * MiB]);

      // A new file (not a replace) of the first bytes edited: it sends only the changed blocks, and the
      // version keeps for itself only the blocks the new file lacks.
      const copy = edited(first, 2);
      const { wanted } = await committed(saver, copy, { name: 'plate copy.step' });
      expect(wanted.length).toBeGreaterThan(0);
      const kept = new Set(blocksOf(copy).map((b) => b.hash));
      const own = new Map(
        blocksOf(first).flatMap((b) => (kept.has(b.hash) ? [] : [[b.hash, b.bytes.length]])),
      );
      const unique = [...own.values()].reduce((sum, size) => sum + size, 0);
      expect(unique).toBeGreaterThan(0);
      expect(unique).toBeLessThan(first.length);
      expect([await used(user.id), await versionBytes()]).toEqual([5 * MiB + unique, unique]);
    });

    it('types an image by its bytes and makes its thumbnail in the background', async () => {
      const photo = await sharp({
        create: {
          width: 900,
          height: 500,
          channels: 3,
          background: '#39c',
          noise: { type: 'gaussian', mean: 128, sigma: 30 },
        },
      })
        .jpeg({ quality: 95 })
        .toBuffer();
      const { file } = await committed(agent, photo, { name: 'render.bin' });
      expect(file.attributes.mimetype).toBe('image/jpeg');
      const worker = t.deps.jobs.startWorker({ definitions: filesJobDefinitions, services: t.deps });
      try {
        await vi.waitFor(
          async () => expect((await agent.get(`/thumbnail/sm/${file.id}`)).statusCode).toBe(200),
          { timeout: 30_000, interval: 200 },
        );
      } finally {
        await worker.close();
      }
    });

    it('keeps both by default: a name the folder holds becomes name (1).ext', async () => {
      const box = await folder('Keep both');
      const data = modelBytes(600_000);
      await committed(agent, data, { name: 'plate.step', parentId: box });
      // The same bytes again: nothing to send, a second file all the same.
      const again = await committed(agent, data, { name: 'plate.step', parentId: box });
      expect(again.wanted).toEqual([]);
      expect(again.file.attributes.name).toBe('plate (1).step');
      expect(await names(box)).toEqual(['plate (1).step', 'plate.step']);
    });

    it('a commit naming a block that is not stored answers 409 with the missing ones, and files nothing', async () => {
      const box = await folder('Missing');
      const data = modelBytes(2 * MiB);
      const blocks = blocksOf(data);
      for (const block of blocks.slice(1))
        expect((await put(agent, block.hash, block.bytes, box)).statusCode).toBe(204);
      const before = await state();
      const answer = await commit(
        agent,
        blocks.map((b) => b.hash),
        data.length,
        { name: 'partial.bin', parentId: box },
      );
      expect(answer.statusCode).toBe(409);
      expect(ErrorBody.parse(answer.json())).toMatchObject({
        code: 'blocks_missing',
        missing: [blocks[0]!.hash],
      });
      expect(await state()).toEqual(before);
      expect(await names(box)).toEqual([]);
      // Sent, then committed again: filed.
      expect((await put(agent, blocks[0]!.hash, blocks[0]!.bytes, box)).statusCode).toBe(204);
      const retried = await commit(
        agent,
        blocks.map((b) => b.hash),
        data.length,
        { name: 'partial.bin', parentId: box },
      );
      expect(retried.statusCode, retried.body).toBe(201);
      expect(Buffer.compare(await download(`/file/${retried.json().data.id}`), data)).toBe(0);
    });

    it('refuses bytes that are not the block their hash names (422), keeping nothing', async () => {
      const bytes = randomBytes(10_000);
      const before = await state();
      const answer = await put(agent, sha256(randomBytes(10)), bytes);
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors.block).toEqual([
        'The bytes sent do not have the SHA-256 this block is named by.',
      ]);
      expect(await state()).toEqual(before);
    });

    it('refuses malformed calls with clear 4xx answers, keeping nothing', async () => {
      const before = await state();
      const bytes = randomBytes(1000);
      expect((await put(agent, 'A'.repeat(64), bytes)).statusCode).toBe(422);
      expect((await put(agent, sha256(bytes).toUpperCase(), bytes)).statusCode).toBe(422);
      expect((await put(agent, sha256(Buffer.alloc(0)), Buffer.alloc(0))).statusCode).toBe(422);
      const json = await agent.put(`/api/upload/blocks/${sha256(bytes)}`, { bytes: 'x' });
      expect(json.statusCode).toBe(415);
      const big = randomBytes(4 * MiB + 1);
      expect((await put(agent, sha256(big), big)).statusCode).toBe(413);
      expect((await missing(agent, [])).statusCode).toBe(422);
      expect((await missing(agent, ['not-a-hash'])).statusCode).toBe(422);
      expect(
        (
          await missing(
            agent,
            Array.from({ length: 20_001 }, () => sha256(bytes)),
          )
        ).statusCode,
      ).toBe(422);
      // A size that is not the sum of the blocks' sizes.
      expect((await put(agent, sha256(bytes), bytes)).statusCode).toBe(204);
      const afterBlock = await state();
      const wrong = await commit(agent, [sha256(bytes)], 999, { name: 'wrong.bin' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.size).toEqual([
        'The size is not the sum of the sizes of the blocks listed.',
      ]);
      expect(await state()).toEqual(afterBlock);
      expect(before.items).toBe(afterBlock.items);
    });

    describe('the upload rules of the chunk form', () => {
      it('refuses a name or a type on the blacklist (422), filing nothing', async () => {
        const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(300_000)]);
        const [block] = blocksOf(exe);
        expect((await put(agent, block!.hash, block!.bytes)).statusCode).toBe(204);
        const before = await state();
        await t.deps.settings.set({ mimetypes_blacklist: ['exe'] });
        const byName = await commit(agent, [block!.hash], exe.length, { name: 'setup.EXE' });
        await t.deps.settings.set({ mimetypes_blacklist: ['application/x-msdownload'] });
        const byType = await commit(agent, [block!.hash], exe.length, { name: 'holiday.jpg' });
        await t.deps.settings.set({ mimetypes_blacklist: [] });
        for (const answer of [byName, byType]) {
          expect(answer.statusCode).toBe(422);
          expect(answer.json().code).toBe('blacklisted_type');
        }
        expect(await state()).toEqual(before);
      });

      it('refuses a file past the upload limit (413), and a block past it', async () => {
        const data = modelBytes(700_000);
        const blocks = blocksOf(data);
        for (const block of blocks) expect((await put(agent, block.hash, block.bytes)).statusCode).toBe(204);
        const before = await state();
        await t.deps.settings.set({ upload_limit: 500_000 });
        const answer = await commit(
          agent,
          blocks.map((b) => b.hash),
          data.length,
          { name: 'big.bin' },
        );
        const block = randomBytes(600_000);
        const sent = await put(agent, sha256(block), block);
        await t.deps.settings.set({ upload_limit: 0 });
        expect(answer.statusCode).toBe(413);
        expect(answer.json().code).toBe('payload_too_large');
        expect(sent.statusCode).toBe(413);
        expect(await state()).toEqual(before);
      });

      it('holds what is sent in the quota and refuses past it (423), changing nothing', async () => {
        const { user } = await createUser(t.deps, { storageCapacity: 1_000_000 });
        const { agent: small } = await signedInAgent(t.app, user);
        const fits = modelBytes(600_000);
        await committed(small, fits, { name: 'first.bin' });
        expect(await used(user.id)).toBe(600_000);
        const before = await state(user.id);
        // A block that does not fit is refused before it is kept.
        const block = randomBytes(500_000);
        const refused = await put(small, sha256(block), block);
        expect(refused.statusCode).toBe(423);
        expect(refused.json().code).toBe('storage_limit_exceeded');
        expect(await state(user.id)).toEqual(before);
        // The same bytes again need no block, but the file's size still has to fit.
        const again = await commit(
          small,
          blocksOf(fits).map((b) => b.hash),
          fits.length,
          { name: 'copy.bin' },
        );
        expect(again.statusCode).toBe(423);
        expect(await state(user.id)).toEqual(before);
        // What fits goes in: the block's hold becomes the file's used bytes.
        const small2 = randomBytes(300_000);
        expect((await put(small, sha256(small2), small2)).statusCode).toBe(204);
        expect((await state(user.id)).reserved).toBe(300_000);
        const filed = await commit(small, [sha256(small2)], small2.length, { name: 'second.bin' });
        expect(filed.statusCode, filed.body).toBe(201);
        expect(await state(user.id)).toMatchObject({ used: 900_000, reserved: 0 });
      });

      it('refuses every call of an account that may not upload', async () => {
        const { user } = await createUser(t.deps);
        const { agent: blocked } = await signedInAgent(t.app, user);
        const bytes = randomBytes(1000);
        expect((await put(blocked, sha256(bytes), bytes)).statusCode).toBe(204);
        await t.deps.database.db
          .updateTable('users')
          .set({ storage_capacity: 0 })
          .where('id', '=', user.id)
          .execute();
        const before = await state(user.id);
        const answers = [
          await missing(blocked, [sha256(bytes)]),
          await put(blocked, sha256(randomBytes(5)), randomBytes(5)),
          await commit(blocked, [sha256(bytes)], bytes.length, { name: 'x.bin' }),
        ];
        expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401]);
        expect(await state(user.id)).toEqual(before);
      });
    });

    describe('a long upload, and the sweeps of what nobody continued', () => {
      afterEach(() => hoursOn(0));

      it('keeps every block of an upload that goes on for days: the sweeps take none, the commit files them all', async () => {
        const box = await folder('Slow link');
        const data = modelBytes(4 * MiB);
        const blocks = blocksOf(data);
        expect(blocks.length).toBeGreaterThanOrEqual(3);
        const hashes = blocks.map((b) => b.hash);
        const before = await state();
        expect(BlocksMissing.parse((await missing(agent, hashes, box)).json()).data.missing).toEqual(hashes);
        // A block every 20 hours: the first was sent long over a day before the sweeps run.
        for (const [i, block] of blocks.entries()) {
          hoursOn(i * 20);
          expect((await put(agent, block.hash, block.bytes, box)).statusCode).toBe(204);
        }
        hoursOn(blocks.length * 20);
        await sweeps();
        expect((await state()).reserved).toBe(before.reserved + data.length);
        const answer = await commit(agent, hashes, data.length, { name: 'bracket.step', parentId: box });
        expect(answer.statusCode, answer.body).toBe(201);
        expect(Buffer.compare(await download(`/file/${answer.json().data.id}`), data)).toBe(0);
        expect(await state()).toMatchObject({ sessions: before.sessions, reserved: before.reserved });
      });

      it('sweeps an upload nobody continued for a day: its blocks go, and the quota it held', async () => {
        const { user } = await createUser(t.deps);
        const { agent: someone } = await signedInAgent(t.app, user);
        const { objects, ...before } = await state(user.id);
        const block = modelBytes(200_000);
        expect((await put(someone, sha256(block), block)).statusCode).toBe(204);
        expect((await state(user.id)).reserved).toBe(block.length);
        hoursOn(23);
        await sweeps();
        expect((await state(user.id)).reserved).toBe(block.length);
        hoursOn(25);
        await sweeps();
        const { objects: left, ...after } = await state(user.id);
        expect(after).toEqual(before);
        expect(left).toBeLessThanOrEqual(objects);
        const answer = await commit(someone, [sha256(block)], block.length, { name: 'left.bin' });
        expect(answer.statusCode).toBe(409);
        expect(answer.json().missing).toEqual([sha256(block)]);
      });
    });

    describe('who may', () => {
      let team: string;
      let editor: TestAgent;
      let viewer: TestAgent;
      let stranger: TestAgent;

      beforeAll(async () => {
        const people = await Promise.all([0, 1, 2].map(() => signedInAgent(t.app)));
        [editor, viewer, stranger] = people.map((p) => p.agent) as [TestAgent, TestAgent, TestAgent];
        const created = await agent.post('/api/teams/folders', {
          name: 'Studio',
          invitations: [
            { email: people[0]!.user.email, permission: 'can_edit' },
            { email: people[1]!.user.email, permission: 'can_view' },
          ],
        });
        expect(created.statusCode, created.body).toBe(201);
        team = TeamFolderDocument.parse(created.json()).data.id;
        for (const member of [editor, viewer]) {
          const [invitation] = (await member.get('/api/notifications')).json().data;
          const accepted = await member.put(
            `/api/teams/invitations/${invitation.attributes.action.params.id}`,
          );
          expect(accepted.statusCode).toBe(204);
        }
      });

      it('a team editor files into the team folder, as the owner’s file, and replaces with a version', async () => {
        const data = modelBytes(2 * MiB);
        const { file } = await committed(editor, data, { name: 'team.step', parentId: team });
        expect(await names(team)).toContain('team.step');
        expect(Buffer.compare(await download(`/file/${file.id}`), data)).toBe(0);
        const next = edited(data, 1);
        const { file: replaced } = await committed(editor, next, {
          name: 'team.step',
          parentId: team,
          conflict: 'replace',
        });
        expect(replaced.id).toBe(file.id);
        const versions = VersionList.parse((await agent.get(`/api/files/${file.id}/versions`)).json()).data;
        expect(versions).toHaveLength(2);
      });

      it('keeps the hold of a block sent again whose second write fails: the commit files it', async () => {
        const data = modelBytes(300_000);
        const [block] = blocksOf(data);
        expect((await put(editor, block!.hash, block!.bytes, team)).statusCode).toBe(204);
        // Sent again (its answer was lost), and the storage fails this time.
        const write = vi
          .spyOn(t.deps.blockStore, 'putBlock')
          .mockRejectedValueOnce(new Error('the storage went away'));
        try {
          expect((await put(editor, block!.hash, block!.bytes, team)).statusCode).toBe(500);
        } finally {
          write.mockRestore();
        }
        const answer = await commit(editor, [block!.hash], block!.bytes.length, {
          name: 'kept.bin',
          parentId: team,
        });
        expect(answer.statusCode, answer.body).toBe(201);
        expect(await names(team)).toContain('kept.bin');
      });

      it('a viewer may not (403) and a stranger finds no such folder (404), changing nothing', async () => {
        const data = modelBytes(300_000);
        const [block] = blocksOf(data);
        const before = await state();
        const calls = (as: TestAgent) => [
          missing(as, [block!.hash], team),
          put(as, block!.hash, block!.bytes, team),
          commit(as, [block!.hash], data.length, { name: 'no.bin', parentId: team }),
        ];
        expect((await Promise.all(calls(viewer))).map((a: Response) => a.statusCode)).toEqual([
          403, 403, 403,
        ]);
        expect((await Promise.all(calls(stranger))).map((a: Response) => a.statusCode)).toEqual([
          404, 404, 404,
        ]);
        expect(await state()).toEqual(before);
      });

      it('a team editor resuming the next day keeps what it sent: asking which blocks are missing keeps them', async () => {
        const data = modelBytes(4 * MiB);
        const blocks = blocksOf(data);
        const hashes = blocks.map((b) => b.hash);
        const half = Math.ceil(blocks.length / 2);
        try {
          for (const block of blocks.slice(0, half))
            expect((await put(editor, block.hash, block.bytes, team)).statusCode).toBe(204);
          hoursOn(23);
          const asked = await missing(editor, hashes, team);
          expect(BlocksMissing.parse(asked.json()).data.missing).toEqual(hashes.slice(half));
          // The sweeps run long over a day after the first blocks were sent, under a day after the question.
          hoursOn(40);
          await sweeps();
          const resumed = await missing(editor, hashes, team);
          expect(BlocksMissing.parse(resumed.json()).data.missing).toEqual(hashes.slice(half));
          for (const block of blocks.slice(half))
            expect((await put(editor, block.hash, block.bytes, team)).statusCode).toBe(204);
          const answer = await commit(editor, hashes, data.length, { name: 'resumed.step', parentId: team });
          expect(answer.statusCode, answer.body).toBe(201);
          expect(Buffer.compare(await download(`/file/${answer.json().data.id}`), data)).toBe(0);
        } finally {
          hoursOn(0);
        }
      });

      it("a team editor's block left a day goes, however the owner's own upload goes on", async () => {
        const left = modelBytes(200_000);
        const reserved = (await state()).reserved;
        try {
          expect((await put(editor, sha256(left), left, team)).statusCode).toBe(204);
          const own = blocksOf(modelBytes(2 * MiB));
          for (const [i, block] of own.entries()) {
            hoursOn(10 + i * 10);
            expect((await put(agent, block.hash, block.bytes)).statusCode).toBe(204);
          }
          hoursOn(25);
          await sweeps();
          const asked = await missing(editor, [sha256(left)], team);
          expect(BlocksMissing.parse(asked.json()).data.missing).toEqual([sha256(left)]);
          expect((await state()).reserved).toBe(reserved + own.reduce((sum, b) => sum + b.bytes.length, 0));
        } finally {
          hoursOn(0);
        }
      });

      it('a team editor whose sent block was collected before its hold went is asked for it again, not answered 500', async () => {
        const data = modelBytes(2 * MiB);
        const blocks = blocksOf(data);
        const hashes = blocks.map((b) => b.hash);
        try {
          for (const block of blocks)
            expect((await put(editor, block.hash, block.bytes, team)).statusCode).toBe(204);
          // Block collection runs before the hourly sweep of abandoned uploads has let the holds go.
          hoursOn(25);
          await t.deps.blockCollector.collect(now());
          const asked = await missing(editor, hashes, team);
          expect(BlocksMissing.parse(asked.json()).data.missing).toEqual(hashes);
          const refused = await commit(editor, hashes, data.length, { name: 'gone.step', parentId: team });
          expect(refused.statusCode, refused.body).toBe(409);
          expect(refused.json().missing).toEqual(hashes);
          // Sent again, under the holds it still has (held once): filed, its bytes whole.
          const reserved = (await state()).reserved;
          for (const block of blocks)
            expect((await put(editor, block.hash, block.bytes, team)).statusCode).toBe(204);
          expect((await state()).reserved).toBe(reserved);
          const answer = await commit(editor, hashes, data.length, { name: 'gone.step', parentId: team });
          expect(answer.statusCode, answer.body).toBe(201);
          expect(Buffer.compare(await download(`/file/${answer.json().data.id}`), data)).toBe(0);
        } finally {
          hoursOn(0);
        }
      });

      it('never tells anyone but the owner what the owner stores', async () => {
        // The owner holds these blocks (a private file outside the team folder).
        const secret = modelBytes(2 * MiB);
        await committed(agent, secret, { name: 'private.step' });
        const hashes = blocksOf(secret).map((b) => b.hash);
        expect(BlocksMissing.parse((await missing(agent, hashes)).json()).data.missing).toEqual([]);
        // To the editor, in the owner's team folder, every one is missing...
        const asked = await missing(editor, hashes, team);
        expect(BlocksMissing.parse(asked.json()).data.missing).toEqual(hashes);
        // ...and a commit of blocks the editor did not send is refused naming them all, filing nothing,
        // even after a chunk upload named like the hold the editor's sent block would leave (refused).
        const before = await state();
        for (const hash of hashes) {
          const posing = await chunkRequest(editor, Buffer.from('x'), {
            name: 'x.bin',
            parentId: team,
            key: `block:${hash}`,
            last: false,
          });
          expect(posing.statusCode).toBe(422);
        }
        expect(await state()).toEqual(before);
        const tried = await commit(editor, hashes, secret.length, { name: 'guess.step', parentId: team });
        expect(tried.statusCode).toBe(409);
        expect(tried.json().missing).toEqual(hashes);
        expect(await state()).toEqual(before);
        // A stranger asks about their own blocks only.
        expect(BlocksMissing.parse((await missing(stranger, hashes)).json()).data.missing).toEqual(hashes);
        // Once the editor sends them, the same commit files the file; an interrupted upload resumes
        // from what the editor sent, which tells nothing of the owner's.
        const [first] = blocksOf(secret);
        expect((await put(editor, first!.hash, first!.bytes, team)).statusCode).toBe(204);
        const resumed = await missing(editor, hashes, team);
        expect(BlocksMissing.parse(resumed.json()).data.missing).toEqual(hashes.slice(1));
        const sent = await committed(editor, secret, { name: 'guess.step', parentId: team });
        expect(sent.wanted).toEqual(hashes.slice(1));
      });
    });
  });
}
