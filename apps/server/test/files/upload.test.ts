import { ErrorBody, ItemDocument, ItemList } from '@atelier/contracts';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { PermanentJobError } from '../../src/jobs/job-definition';
import { ownerActor } from '../../src/modules/files/files.access';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import { FilesRepository } from '../../src/modules/files/files.repository';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import {
  chunkRequest,
  createFilesTestApp,
  filesMatrix,
  multipartBody,
  uploaded,
  uploadFile,
  writeClip,
  type FilesTestApp,
} from './files-harness';
import { killedWhileFiling } from '../support/killed-while-filing';

const CHUNK = 64 * 1024;
/** A clip's bytes, as a user's upload of it. */
async function makeClip(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-clip-'));
  try {
    const path = join(dir, 'clip.mp4');
    await writeClip(path);
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

for (const [database, storage] of filesMatrix) {
  describe(`chunked upload [${database}, ${storage}]`, () => {
    let t: FilesTestApp;
    let agent: TestAgent;

    beforeAll(async () => {
      t = await createFilesTestApp(database, storage, { chunk_size: CHUNK });
      ({ agent } = await signedInAgent(t.app));
    });
    afterAll(() => t.close());

    async function leftovers() {
      const sessions = await t.deps.database.db.selectFrom('upload_sessions').selectAll().execute();
      return { sessions: sessions.length, objects: await t.storedObjects() };
    }

    it('leaves no empty object behind when its process is killed after storing it, before filing it', async () => {
      const { user } = await createUser(t.deps);
      // The process dies as the file is being filed.
      const killed = await killedWhileFiling(t, {
        counts: (body) => body instanceof Uint8Array && body.length === 0,
      });
      try {
        await expect(
          t.deps.uploads.receiveWhole(
            ownerActor(user.id),
            null,
            'empty.txt',
            Readable.from([]),
            'keep-both',
            0,
            () => Promise.reject(new Error('killed')),
          ),
        ).rejects.toThrow('killed');
      } finally {
        killed.restore();
      }
      expect(killed.written.length).toBe(1);
      expect(await killed.leftAfterSweep()).toEqual([]);
    });

    it('answers 404 and files nothing when its upload goes while a chunk near the quota arrives (its account deleted)', async () => {
      const { user } = await createUser(t.deps, { storageCapacity: 1.5 * CHUNK });
      let goOn!: () => void;
      const paused = new Promise<void>((resolve) => (goOn = resolve));
      async function* body() {
        yield randomBytes(CHUNK);
        // The second chunk cannot hold all it may carry under the quota, so it holds its bytes as they come.
        yield randomBytes(CHUNK / 4);
        await paused;
        yield randomBytes(CHUNK / 4);
      }
      const receiving = t.deps.uploads.receiveWhole(
        ownerActor(user.id),
        null,
        'near.bin',
        Readable.from(body()),
      );
      const session = () =>
        t.deps.database.db
          .selectFrom('upload_sessions')
          .select(['part_count', 'received_bytes', 'reserved_bytes'])
          .where('user_id', '=', user.id)
          .executeTakeFirst();
      await vi.waitFor(
        async () => {
          const now = await session();
          expect(now?.part_count).toBe(1);
          expect(Number(now?.reserved_bytes)).toBeGreaterThan(Number(now?.received_bytes));
        },
        { timeout: 15_000, interval: 20 },
      );
      // As the account's deletion takes its upload sessions.
      await t.deps.database.db.deleteFrom('upload_sessions').where('user_id', '=', user.id).execute();
      goOn();
      await expect(receiving).rejects.toMatchObject({ code: 'not_found' });
      const items = await t.deps.database.db
        .selectFrom('items')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(items).toEqual([]);
    });

    it('assembles the chunks into one file with the type its bytes show', async () => {
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#09f' } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      const answers = await uploadFile(agent, png, { name: 'chart.txt' });
      expect(answers.length).toBeGreaterThan(2);
      expect(answers.slice(0, -1).map((a) => a.statusCode)).toEqual(answers.slice(0, -1).map(() => 204));
      const last = answers.at(-1)!;
      expect(last.statusCode).toBe(201);
      const { data } = ItemDocument.parse(last.json());
      expect(data.attributes).toMatchObject({
        name: 'chart.txt',
        mimetype: 'image/png',
        filesize: png.length,
        parent_id: null,
      });

      const file = await agent.get(data.attributes.file_url!);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(png)).toBe(true);
      expect((await leftovers()).sessions).toBe(0);
    });

    it('keeps the key of the upload away from storage paths', async () => {
      const data = randomBytes(1000);
      const file = await uploaded(agent, data, { name: 'notes.bin', key: '../../../etc/passwd' });
      const row = await t.deps.database.db
        .selectFrom('items')
        .selectAll()
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      expect(row.storage_key).toMatch(/^[0-9a-f]{32}$/);
      expect(row.name).toBe('notes.bin');
      expect((await agent.get(`/file/${file.id}`)).rawPayload.equals(data)).toBe(true);
    });

    it('reads the fields whether they come before or after the chunk', async () => {
      const data = randomBytes(CHUNK + 10);
      const file = await uploaded(agent, data, { name: 'late-fields.bin', chunkFirst: true });
      expect(file.attributes.filesize).toBe(data.length);
    });

    it('makes or reuses the folders of a folder upload under the parent', async () => {
      const parent = (await agent.post('/api/create-folder', { name: 'Projects' })).json().data;
      const first = await uploaded(agent, Buffer.from('one'), {
        name: 'a.txt',
        parentId: parent.id,
        path: '/Site/Docs/a.txt',
      });
      const second = await uploaded(agent, Buffer.from('two'), {
        name: 'b.txt',
        parentId: parent.id,
        path: '/Site/Docs/b.txt',
      });
      expect(second.attributes.parent_id).toBe(first.attributes.parent_id);

      const site = (await agent.get(`/api/browse/folders/${parent.id}`)).json().data;
      expect(site.map((i: { attributes: { name: string } }) => i.attributes.name)).toEqual(['Site']);
      const docs = (await agent.get(`/api/browse/folders/${site[0].id}`)).json().data;
      expect(docs.map((i: { attributes: { name: string } }) => i.attributes.name)).toEqual(['Docs']);
      expect(docs[0].id).toBe(first.attributes.parent_id);
      expect(docs[0].attributes.items).toBe(2);
    });

    it('makes the folder of a path beside a file of its name under a free name, never two items of one name', async () => {
      const parent = (await agent.post('/api/create-folder', { name: 'Exports' })).json().data;
      await uploaded(agent, Buffer.from('a file'), { name: 'Site', parentId: parent.id });
      const inside = await uploaded(agent, Buffer.from('one'), {
        name: 'a.txt',
        parentId: parent.id,
        path: '/Site/a.txt',
      });
      const items = ItemList.parse((await agent.get(`/api/browse/folders/${parent.id}`)).json()).data;
      expect(items.map((item) => [item.type, item.attributes.name])).toEqual([
        ['folder', 'Site (1)'],
        ['file', 'Site'],
      ]);
      expect(inside.attributes.parent_id).toBe(items[0]!.id);
    });

    it('survives a chunk cut off mid-request and retried', async () => {
      const data = randomBytes(3 * CHUNK);
      const key = `retry-${randomBytes(4).toString('hex')}.part`;
      const options = { name: 'retried.bin', key };
      expect(
        (await chunkRequest(agent, data.subarray(0, CHUNK), { ...options, last: false })).statusCode,
      ).toBe(204);

      // The second chunk's request ends half-way through its bytes.
      const { payload, headers } = multipartBody([
        { field: 'name', value: 'retried.bin' },
        { field: 'is_last_chunk', value: '0' },
        { file: 'chunk', filename: key, data: data.subarray(CHUNK, 2 * CHUNK) },
      ]);
      const cut = await agent.post('/api/upload/chunks', payload.subarray(0, payload.length - CHUNK / 2), {
        headers,
      });
      expect(cut.statusCode).toBe(400);
      // What the cut-off chunk reserved is let go: the upload holds only the chunk it stored.
      const session = await t.deps.database.db
        .selectFrom('upload_sessions')
        .select(['received_bytes', 'reserved_bytes'])
        .where('client_key', '=', key)
        .executeTakeFirstOrThrow();
      expect(session).toEqual({ received_bytes: CHUNK, reserved_bytes: CHUNK });

      expect(
        (await chunkRequest(agent, data.subarray(CHUNK, 2 * CHUNK), { ...options, last: false })).statusCode,
      ).toBe(204);
      const last = await chunkRequest(agent, data.subarray(2 * CHUNK), { ...options, last: true });
      expect(last.statusCode).toBe(201);
      const body = await agent.get(last.json().data.attributes.file_url);
      expect(body.rawPayload.equals(data)).toBe(true);
    });

    it('leaves nothing when the first chunk is cut off, and the retry starts afresh', async () => {
      const before = await leftovers();
      const data = randomBytes(CHUNK);
      const key = `first-cut-${randomBytes(4).toString('hex')}.part`;
      const { payload, headers } = multipartBody([
        { field: 'name', value: 'first-cut.bin' },
        { field: 'is_last_chunk', value: '1' },
        { file: 'chunk', filename: key, data },
      ]);
      const cut = await agent.post('/api/upload/chunks', payload.subarray(0, payload.length - CHUNK / 2), {
        headers,
      });
      expect(cut.statusCode).toBe(400);
      expect(await leftovers()).toEqual(before);
      const retry = await chunkRequest(agent, data, { name: 'first-cut.bin', key, last: true });
      expect(retry.statusCode).toBe(201);
      expect((await agent.get(retry.json().data.attributes.file_url)).rawPayload.equals(data)).toBe(true);
    });

    describe('chunks that say where they start (offset)', () => {
      const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

      /** One file sent in chunks of CHUNK, each with the offset where it starts, as the web client sends it. */
      function offsetUpload(data: Buffer, name = 'offsets.bin') {
        const key = `${randomBytes(8).toString('hex')}-${name}.part`;
        return {
          key,
          /** Sends chunk `index`: its bytes and offset unless overridden, the offset before the bytes unless `offsetLast`. */
          send(index: number, change: { bytes?: Buffer; offset?: number; offsetLast?: boolean } = {}) {
            const start = index * CHUNK;
            const bytes = change.bytes ?? data.subarray(start, start + CHUNK);
            const offset = { field: 'offset', value: String(change.offset ?? start) };
            const chunk = { file: 'chunk', filename: key, data: bytes };
            const fields = [
              { field: 'name', value: name },
              { field: 'is_last_chunk', value: start + CHUNK >= data.length ? '1' : '0' },
            ];
            const { payload, headers } = multipartBody(
              change.offsetLast ? [...fields, chunk, offset] : [...fields, offset, chunk],
            );
            return agent.post('/api/upload/chunks', payload, { headers });
          },
          /** The upload as the server holds it: its session (without its clock), the owner's usage, the stored objects. */
          async state() {
            const db = t.deps.database.db;
            const session = await db
              .selectFrom('upload_sessions')
              .select(['id', 'received_bytes', 'reserved_bytes', 'part_count', 'storage_key'])
              .where('client_key', '=', key)
              .executeTakeFirst();
            const usage = await db
              .selectFrom('storage_usage')
              .select(['used_bytes', 'reserved_bytes'])
              .execute();
            return { session, usage, objects: await t.storedObjects() };
          },
        };
      }

      /** The 409 of a chunk that does not continue its upload, with the count to resume from. */
      function expectMismatch(answer: Awaited<ReturnType<TestAgent['post']>>, received: number) {
        expect(answer.statusCode).toBe(409);
        const body = ErrorBody.parse(answer.json());
        expect(body).toMatchObject({ code: 'upload_offset_mismatch', meta: { received_bytes: received } });
        expect(body.message).toContain(String(received));
      }

      it('answers a one-chunk file sent again after its answer was lost with the same file, storing no copy', async () => {
        const data = randomBytes(CHUNK / 2);
        const upload = offsetUpload(data, 'single.bin');
        const first = await upload.send(0);
        expect(first.statusCode).toBe(201);
        const stored = await upload.state();
        const again = await upload.send(0);
        expect(again.statusCode).toBe(201);
        expect(again.json().data.id).toBe(first.json().data.id);
        expect(await upload.state()).toEqual(stored);
      });

      it('stores a chunk sent again after its answer was lost once, and answers the last one with its file', async () => {
        const before = await leftovers();
        const data = randomBytes(3 * CHUNK + 100);
        const upload = offsetUpload(data);
        expect((await upload.send(0)).statusCode).toBe(204);
        expect((await upload.send(1)).statusCode).toBe(204);
        const stored = await upload.state();
        // The answer to chunk 1 was lost: the client sends it again.
        expect((await upload.send(1)).statusCode).toBe(204);
        expect(await upload.state()).toEqual(stored);
        expect(stored.session).toMatchObject({ received_bytes: 2 * CHUNK, reserved_bytes: 2 * CHUNK });

        expect((await upload.send(2)).statusCode).toBe(204);
        const filed = await upload.send(3);
        expect(filed.statusCode).toBe(201);
        const file = ItemDocument.parse(filed.json()).data;
        // The answer to the last chunk was lost as well: the same file again, nothing new stored.
        const again = await upload.send(3);
        expect(again.statusCode).toBe(201);
        expect(ItemDocument.parse(again.json()).data).toEqual(file);

        expect(file.attributes.filesize).toBe(data.length);
        expect(sha256((await agent.get(file.attributes.file_url!)).rawPayload)).toBe(sha256(data));
        const after = await leftovers();
        expect(after.sessions).toBe(before.sessions);
        expect(after.objects.length).toBe(before.objects.length + 1);
      });

      it('refuses a chunk that does not continue the upload with 409 and the stored count, changing nothing', async () => {
        const data = randomBytes(2 * CHUNK + 10);
        const upload = offsetUpload(data);
        expect((await upload.send(0)).statusCode).toBe(204);
        const stored = await upload.state();

        expectMismatch(await upload.send(2), CHUNK); // a gap
        expectMismatch(await upload.send(1, { offset: CHUNK / 2 }), CHUNK); // an overlap
        expectMismatch(await upload.send(0, { bytes: randomBytes(CHUNK) }), CHUNK); // other bytes at the last chunk's place
        expectMismatch(await upload.send(0, { bytes: data.subarray(0, CHUNK - 1), offset: 1 }), CHUNK);
        expect(await upload.state()).toEqual(stored);

        expect((await upload.send(1)).statusCode).toBe(204);
        const last = await upload.send(2);
        expect(last.statusCode).toBe(201);
        expect(sha256((await agent.get(last.json().data.attributes.file_url)).rawPayload)).toBe(sha256(data));
      });

      it('answers 409 with nothing stored for an offset past the start of an upload it does not know', async () => {
        const before = await leftovers();
        expectMismatch(await offsetUpload(randomBytes(2 * CHUNK)).send(1), 0);
        expect(await leftovers()).toEqual(before);
      });

      it('reads an offset sent after the bytes the same way', async () => {
        const data = randomBytes(2 * CHUNK + 10);
        const upload = offsetUpload(data);
        expect((await upload.send(0, { offsetLast: true })).statusCode).toBe(204);
        const { session, usage } = await upload.state();
        expect((await upload.send(0, { offsetLast: true })).statusCode).toBe(204);
        expectMismatch(await upload.send(0, { offsetLast: true, bytes: randomBytes(CHUNK) }), CHUNK);
        expectMismatch(await upload.send(2, { offsetLast: true }), CHUNK);
        // The bytes were stored before the offset was read, and let go: the upload holds what it held.
        expect(await upload.state()).toMatchObject({ session, usage });

        expect((await upload.send(1, { offsetLast: true })).statusCode).toBe(204);
        const last = await upload.send(2, { offsetLast: true });
        expect(last.statusCode).toBe(201);
        expect(sha256((await agent.get(last.json().data.attributes.file_url)).rawPayload)).toBe(sha256(data));
        expect((await upload.send(2, { offsetLast: true })).json()).toEqual(last.json());
      });

      it('forgets which file an upload became once the sweep takes uploads of that age', async () => {
        const data = randomBytes(CHUNK + 10);
        const upload = offsetUpload(data);
        await upload.send(0);
        expect((await upload.send(1)).statusCode).toBe(201);
        const dayLater = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
        await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, dayLater);
        expectMismatch(await upload.send(1), 0);
      });

      it('appends every chunk as before when the client sends no offset', async () => {
        const data = randomBytes(CHUNK + 10);
        const options = { name: 'no-offset.bin', key: `plain-${randomBytes(4).toString('hex')}.part` };
        const first = data.subarray(0, CHUNK);
        for (let i = 0; i < 2; i++)
          expect((await chunkRequest(agent, first, { ...options, last: false })).statusCode).toBe(204);
        const last = await chunkRequest(agent, data.subarray(CHUNK), { ...options, last: true });
        expect(last.statusCode).toBe(201);
        const stored = (await agent.get(last.json().data.attributes.file_url)).rawPayload;
        expect(stored.equals(Buffer.concat([first, data]))).toBe(true);
      });
    });

    describe('a completion cut off (the process failing between its steps)', () => {
      /** Sends all but the last chunk, then the last one with `step` failing once; answers what a retry needs. */
      async function cutOffCompletion(step: () => MockInstance) {
        const data = randomBytes(2 * CHUNK + 100);
        const options = { name: 'cut-off.bin', key: `cut-${randomBytes(4).toString('hex')}.part` };
        for (const start of [0, CHUNK])
          await chunkRequest(agent, data.subarray(start, start + CHUNK), { ...options, last: false });
        const sendLast = () => chunkRequest(agent, data.subarray(2 * CHUNK), { ...options, last: true });
        const failing = step().mockRejectedValueOnce(new Error('process killed'));
        try {
          expect((await sendLast()).statusCode).toBe(500);
        } finally {
          failing.mockRestore();
        }
        return { data, sendLast };
      }

      /** The file is filed whole, and its object is the only thing the upload left. */
      async function expectFiled(
        answer: Awaited<ReturnType<typeof chunkRequest>>,
        data: Buffer,
        before: Awaited<ReturnType<typeof leftovers>>,
      ) {
        expect(answer.statusCode).toBe(201);
        const file = ItemDocument.parse(answer.json()).data;
        expect((await agent.get(file.attributes.file_url!)).rawPayload.equals(data)).toBe(true);
        const after = await leftovers();
        expect(after.sessions).toBe(before.sessions);
        expect(after.objects.length).toBe(before.objects.length + 1);
      }

      it('is finished by the last chunk sent again once the object is written', async () => {
        const before = await leftovers();
        const { data, sendLast } = await cutOffCompletion(() =>
          vi.spyOn(FilesRepository.prototype, 'fileFromUpload'),
        );
        // The object exists, and only the session names it.
        expect((await leftovers()).objects.length).toBe(before.objects.length + 1);
        await expectFiled(await sendLast(), data, before);
      });

      it('is finished by the last chunk sent again when the object was never written', async () => {
        const before = await leftovers();
        const storage = await t.deps.storage.current();
        const { data, sendLast } = await cutOffCompletion(() => vi.spyOn(storage, 'completeParts'));
        await expectFiled(await sendLast(), data, before);
      });

      it('keeps the file that the last chunk, sent again, filed while the first one was being filed', async () => {
        const before = await leftovers();
        const data = randomBytes(2 * CHUNK + 100);
        const options = { name: 'twice.bin', key: `twice-${randomBytes(4).toString('hex')}.part` };
        for (const start of [0, CHUNK])
          await chunkRequest(agent, data.subarray(start, start + CHUNK), { ...options, last: false });
        const sendLast = () => chunkRequest(agent, data.subarray(2 * CHUNK), { ...options, last: true });
        // The first request has written the object and is slow to go on; its client sends the chunk again.
        const storage = await t.deps.storage.current();
        const complete = storage.completeParts.bind(storage);
        let written!: () => void;
        const objectWritten = new Promise<void>((resolve) => (written = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const slow = vi.spyOn(storage, 'completeParts').mockImplementationOnce(async (...args) => {
          const stored = await complete(...args);
          written();
          await released;
          return stored;
        });
        try {
          const first = sendLast();
          await objectWritten;
          const again = await sendLast();
          release();
          // The chunk sent again files the upload; the first finds it changed meanwhile.
          expect(again.statusCode).toBe(201);
          const firstAnswer = await first;
          expect(firstAnswer.statusCode, firstAnswer.body).toBe(400);
          await expectFiled(again, data, before);
        } finally {
          slow.mockRestore();
        }
      });

      it('keeps the file its last chunk, sent again, filed while the sweep was on its way to it', async () => {
        const before = await leftovers();
        const { data, sendLast } = await cutOffCompletion(() =>
          vi.spyOn(FilesRepository.prototype, 'fileFromUpload'),
        );
        // The sweep has read the idle sessions (this one among them) and is slow to go on.
        const read = FilesRepository.prototype.uploadSessionsIdleSince;
        let listed!: () => void;
        const sessionsRead = new Promise<void>((resolve) => (listed = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const slow = vi
          .spyOn(FilesRepository.prototype, 'uploadSessionsIdleSince')
          .mockImplementationOnce(async function (this: FilesRepository, ...args) {
            const stale = await read.apply(this, args);
            listed();
            await released;
            return stale;
          });
        try {
          const dayLater = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
          const sweep = t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, dayLater);
          await sessionsRead;
          const again = await sendLast();
          release();
          expect(await sweep).toBe(0);
          await expectFiled(again, data, before);
        } finally {
          slow.mockRestore();
        }
      });

      it('is swept with its object when nobody sends the last chunk again', async () => {
        const before = await leftovers();
        await cutOffCompletion(() => vi.spyOn(FilesRepository.prototype, 'fileFromUpload'));
        const dayLater = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
        expect(await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, dayLater)).toBe(1);
        expect(await leftovers()).toEqual(before);
      });
    });

    describe('refusals leave nothing behind', () => {
      it('refuses a blacklisted extension (422) before any byte is stored', async () => {
        await t.deps.settings.set({ mimetypes_blacklist: ['exe'] });
        const before = await leftovers();
        const [answer] = await uploadFile(agent, randomBytes(100), { name: 'setup.EXE' });
        expect(answer!.statusCode).toBe(422);
        expect(answer!.json()).toMatchObject({
          code: 'blacklisted_type',
          message: 'Files of this type can\u2019t be uploaded.',
        });
        expect(await leftovers()).toEqual(before);
        await t.deps.settings.set({ mimetypes_blacklist: [] });
      });

      it('refuses a blacklisted type found in the bytes, whatever the name says', async () => {
        await t.deps.settings.set({ mimetypes_blacklist: ['application/x-msdownload'] });
        const before = await leftovers();
        const exe = Buffer.concat([Buffer.from('MZ'), randomBytes(3 * CHUNK)]);
        const answers = await uploadFile(agent, exe, { name: 'holiday.jpg' });
        expect(answers.map((a) => a.statusCode)).toEqual([422]);
        expect(await leftovers()).toEqual(before);
        await t.deps.settings.set({ mimetypes_blacklist: [] });
      });

      it('checks every chunk: a blacklist set mid-upload removes what was stored', async () => {
        const before = await leftovers();
        const data = randomBytes(3 * CHUNK);
        const key = `mid-${randomBytes(4).toString('hex')}.part`;
        expect(
          (await chunkRequest(agent, data.subarray(0, CHUNK), { name: 'tool.sh', key, last: false }))
            .statusCode,
        ).toBe(204);
        expect((await leftovers()).sessions).toBe(before.sessions + 1);
        await t.deps.settings.set({ mimetypes_blacklist: ['sh'] });
        const second = await chunkRequest(agent, data.subarray(CHUNK, 2 * CHUNK), {
          name: 'tool.sh',
          key,
          last: false,
        });
        await t.deps.settings.set({ mimetypes_blacklist: [] });
        expect(second.statusCode).toBe(422);
        expect(await leftovers()).toEqual(before);
      });

      it('refuses an upload growing past the upload limit (413)', async () => {
        await t.deps.settings.set({ upload_limit: 2 * CHUNK });
        const before = await leftovers();
        const answers = await uploadFile(agent, randomBytes(3 * CHUNK), { name: 'big.bin' });
        await t.deps.settings.set({ upload_limit: 0 });
        expect(answers.map((a) => a.statusCode)).toEqual([204, 204, 413]);
        expect(answers[2]!.json().code).toBe('payload_too_large');
        expect(await leftovers()).toEqual(before);
      });

      it('refuses a chunk larger than the chunk size (413)', async () => {
        const before = await leftovers();
        const [answer] = await uploadFile(agent, randomBytes(CHUNK + 1), {
          name: 'fat.bin',
          chunkSize: CHUNK + 1,
        });
        expect(answer!.statusCode).toBe(413);
        expect(await leftovers()).toEqual(before);
      });

      it('refuses an upload beyond the storage quota (423)', async () => {
        const { user } = await createUser(t.deps, { storageCapacity: 100_000 });
        const { agent: small } = await signedInAgent(t.app, user);
        await uploaded(small, randomBytes(60_000), { name: 'first.bin' });
        const before = await leftovers();
        const answers = await uploadFile(small, randomBytes(50_000), { name: 'second.bin' });
        expect(answers.map((a) => a.statusCode)).toEqual([423]);
        expect(answers[0]!.json().code).toBe('storage_limit_exceeded');
        expect(await leftovers()).toEqual(before);
      });

      it('never lets parallel uploads store past the quota together', async () => {
        const capacity = 5.5 * CHUNK;
        const { user } = await createUser(t.deps, { storageCapacity: capacity });
        const { agent: near } = await signedInAgent(t.app, user);
        const before = await leftovers();
        // One- and two-chunk files, all at once: every first chunk starts while nothing is stored yet.
        const sizes = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? CHUNK : 1.5 * CHUNK));
        const answers = await Promise.all(
          sizes.map((size, i) => uploadFile(near, randomBytes(size), { name: `parallel-${i}.bin` })),
        );
        const lasts = answers.map((a) => a.at(-1)!);
        expect(lasts.every((a) => a.statusCode === 201 || a.statusCode === 423)).toBe(true);
        const stored = lasts
          .filter((a) => a.statusCode === 201)
          .map((a) => ItemDocument.parse(a.json()).data.attributes.filesize!);
        expect(stored.length).toBeGreaterThan(0);
        expect(stored.length).toBeLessThan(sizes.length);
        const total = stored.reduce((sum, size) => sum + size, 0);
        expect(total).toBeLessThanOrEqual(capacity);

        const usage = await t.deps.database.db
          .selectFrom('storage_usage')
          .select(['used_bytes', 'reserved_bytes'])
          .where('user_id', '=', user.id)
          .executeTakeFirst();
        expect(usage).toEqual({ used_bytes: total, reserved_bytes: 0 });
        const after = await leftovers();
        expect(after.sessions).toBe(before.sessions);
        expect(after.objects.length).toBe(before.objects.length + stored.length);
      });

      it('refuses uploads while the account may not upload (401, with the reason)', async () => {
        const { user } = await createUser(t.deps, { storageCapacity: 10 });
        const { agent: full } = await signedInAgent(t.app, user);
        await t.deps.database.db
          .insertInto('items')
          .values({
            id: crypto.randomUUID(),
            user_id: user.id,
            parent_id: null,
            type: 'file',
            name: 'x',
            sort_name: 'x',
            emoji: null,
            color: null,
            mimetype: 'text/plain',
            size: 10,
            storage_key: null,
            deleted_at: null,
            trashed_by: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
        const before = await leftovers();
        const [answer] = await uploadFile(full, Buffer.from('hello'), { name: 'hello.txt' });
        expect(answer!.statusCode).toBe(401);
        expect(answer!.json().code).toBe('upload_disabled');
        expect(answer!.json().message).toMatch(/\S/);
        expect(await leftovers()).toEqual(before);
      });

      it('refuses a zero-byte file (422)', async () => {
        const before = await leftovers();
        const [answer] = await uploadFile(agent, Buffer.alloc(0), { name: 'empty.txt' });
        expect(answer!.statusCode).toBe(422);
        expect(await leftovers()).toEqual(before);
      });

      it("answers 404 for another user's parent folder and keeps nothing", async () => {
        const { agent: other } = await signedInAgent(t.app);
        const foreign = (await other.post('/api/create-folder', { name: 'Private' })).json().data;
        const before = await leftovers();
        const [answer] = await uploadFile(agent, randomBytes(500), {
          name: 'sneaky.bin',
          parentId: foreign.id,
        });
        expect(answer!.statusCode).toBe(404);
        expect(await leftovers()).toEqual(before);
        const inside = await other.get(`/api/browse/folders/${foreign.id}`);
        expect(inside.json().data).toEqual([]);
      });

      it('refuses anonymous uploads', async () => {
        const { payload, headers } = multipartBody([
          { field: 'name', value: 'a.txt' },
          { field: 'is_last_chunk', value: '1' },
          { file: 'chunk', filename: 'k-a.txt.part', data: Buffer.from('a') },
        ]);
        const answer = await t.app.inject({ method: 'POST', url: '/api/upload/chunks', payload, headers });
        expect(answer.statusCode).toBe(401);
      });
    });

    it('counts stored files in the usage the quota reserves against, through uploads and deletions', async () => {
      const { agent: owner, user } = await signedInAgent(t.app);
      const usage = () =>
        t.deps.database.db
          .selectFrom('storage_usage')
          .select(['used_bytes', 'reserved_bytes'])
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
      const folder = (await owner.post('/api/create-folder', { name: 'Kept' })).json().data;
      const inside = await uploaded(owner, randomBytes(CHUNK + 7), { name: 'a.bin', parentId: folder.id });
      const loose = await uploaded(owner, randomBytes(300), { name: 'b.bin' });
      expect(await usage()).toEqual({ used_bytes: CHUNK + 7 + 300, reserved_bytes: 0 });

      // Deleting the folder for good takes its file with it through the foreign key.
      const removed = await owner.post('/api/remove', {
        items: [{ id: folder.id, type: 'folder', force_delete: true }],
      });
      expect(removed.statusCode).toBe(204);
      expect((await owner.get(`/file/${inside.id}`)).statusCode).toBe(404);
      expect(await usage()).toEqual({ used_bytes: 300, reserved_bytes: 0 });
      expect((await owner.get(`/file/${loose.id}`)).statusCode).toBe(200);
    });

    it('sweeps uploads abandoned half-way, parts and all', async () => {
      const before = await leftovers();
      const key = `abandoned-${randomBytes(4).toString('hex')}.part`;
      const { agent: owner, user } = await signedInAgent(t.app);
      await chunkRequest(owner, randomBytes(CHUNK), { name: 'gone.bin', key, last: false });
      expect((await leftovers()).sessions).toBe(before.sessions + 1);
      const reserved = () =>
        t.deps.database.db
          .selectFrom('storage_usage')
          .select('reserved_bytes')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
      expect(await reserved()).toEqual({ reserved_bytes: CHUNK });
      expect(await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, new Date())).toBe(0);
      const dayLater = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
      expect(await t.deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, dayLater)).toBe(1);
      expect(await leftovers()).toEqual(before);
      expect(await reserved()).toEqual({ reserved_bytes: 0 });
    });

    it('gives up at once on an image its bytes claim but no decoder can read', async () => {
      // A real PNG (so its type is detected) with the compressed pixels of its first data chunk overwritten.
      const noise = await sharp(randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
        .png()
        .toBuffer();
      const idat = noise.indexOf('IDAT');
      const broken = Buffer.from(noise).fill(0xff, idat + 16, idat + 4 + noise.readUInt32BE(idat - 4) - 16);
      const file = await uploaded(agent, broken, { name: 'broken.png' });
      expect(file.attributes.mimetype).toBe('image/png');
      await expect(t.deps.thumbnails.generate(file.id)).rejects.toBeInstanceOf(PermanentJobError);
      expect((await agent.get(`/thumbnail/xs/${file.id}`)).statusCode).toBe(404);
    });

    it('makes thumbnails of an image and a poster of a video in the background, and serves them', async () => {
      const photo = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#c33' } })
        .jpeg()
        .toBuffer();
      const image = await uploaded(agent, photo, { name: 'photo.jpg' });
      const video = await uploaded(agent, await makeClip(), { name: 'clip.mp4' });
      expect(video.attributes.mimetype).toBe('video/mp4');
      expect(image.attributes.thumbnail).toBeNull();

      const worker = t.deps.jobs.startWorker({ definitions: filesJobDefinitions, services: t.deps });
      try {
        await vi.waitFor(
          async () => {
            const listed = (await agent.get('/api/browse/latest')).json().data as {
              id: string;
              attributes: { thumbnail: unknown };
            }[];
            for (const id of [image.id, video.id])
              expect(listed.find((i) => i.id === id)?.attributes.thumbnail).not.toBeNull();
          },
          { timeout: 30_000, interval: 200 },
        );
      } finally {
        await worker.close();
      }
      const small = await agent.get(`/thumbnail/sm/${image.id}`);
      expect(small.statusCode).toBe(200);
      expect(small.headers['content-type']).toBe('image/webp');
      expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 256, height: 128 });
      const poster = await agent.get(`/thumbnail/md/${video.id}`);
      expect(await sharp(poster.rawPayload).metadata()).toMatchObject({
        format: 'webp',
        width: 320,
        height: 240,
      });

      const { agent: other } = await signedInAgent(t.app);
      expect((await other.get(`/thumbnail/sm/${image.id}`)).statusCode).toBe(404);
    });
  });
}
