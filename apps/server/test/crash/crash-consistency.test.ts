import { StorageUsage, UserResource } from '@atelier/contracts';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreparedDatabase } from '../../src/db/prepare';
import { parseEnv } from '../../src/env';
import { ABANDONED_UPLOAD_MS } from '../../src/modules/files/files.tasks';
import type { UploadSessionRow } from '../../src/modules/files/files.tables';
import { closeServices, createServices, type AppDeps } from '../../src/services';
import { storageEnv, storageKinds, type StorageKind } from '../files/files-harness';
import { startS3Server, type TestS3Server } from '../storage/s3-server';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from '../support/databases';
import { createSession, createUser } from '../support/factories';
import {
  ChunkedUpload,
  localStoredBytes,
  s3StoredBytes,
  ServerProcess,
  sha256,
  SignedInClient,
  UnexpectedAnswer,
} from './crash-harness';

/**
 * Where the kills of `npm test` fall: after this share of a round's chunks was answered. Each round
 * restarts the server, so S3 (whose driver differs only in how parts are kept) gets one round there;
 * a soak runs CRASH_ROUNDS rounds on both, the kills falling anywhere.
 */
const KILL_POINTS: Record<StorageKind, number[]> = { local: [0.2, 0.5, 0.8], s3: [0.5] };
const SOAK_ROUNDS = process.env.CRASH_ROUNDS ? Number(process.env.CRASH_ROUNDS) : null;
const UPLOADS = 20;
const CHUNK = 128 * 1024;

/**
 * kill -9 of the real server process during 20 concurrent chunked uploads, then a start on the
 * same database and storage: no row without its bytes, no bytes without a row, every filed file
 * byte for byte its source, every acknowledged chunk kept, unfinished uploads resumed from the
 * chunk after the last one answered (the chunks carry offsets, so one stored without its answer is
 * recognised when it comes again) or swept, and the quota's counts equal to what is stored.
 */
for (const database of databaseKinds) {
  for (const storage of storageKinds) {
    describe(`crash consistency [${database}, ${storage}]`, () => {
      const rounds = SOAK_ROUNDS ?? KILL_POINTS[storage].length;
      let scratch: ScratchDatabase;
      let dataDir: string;
      let s3: TestS3Server | null = null;
      let env: Record<string, string>;
      let deps: AppDeps;
      let userId: string;
      let sessionToken: string;
      let server: ServerProcess | undefined;
      let client: SignedInClient;
      /** Every upload of every round, to check the files filed in earlier rounds stay intact. */
      const uploads: ChunkedUpload[] = [];

      beforeAll(async () => {
        scratch = await createScratchDatabase(database);
        dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-crash-'));
        s3 = storage === 's3' ? await startS3Server() : null;
        env = {
          DATABASE_URL: scratch.url,
          DATA_DIR: dataDir,
          WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
          REDIS_URL: '',
          RATE_LIMIT_MAX: '100000',
          ...storageEnv(s3),
        };
        // The test's own services share the database and storage: they seed, inspect and sweep.
        deps = createServices(
          { env: parseEnv(env), database: await openPreparedDatabase(scratch.url), databasePinned: true },
          pino({ level: 'silent' }),
        );
        await deps.settings.set({
          installed: true,
          contact_email: 'contact@atelier.test',
          chunk_size: CHUNK,
        });
        const { user } = await createUser(deps, { storageCapacity: 1024 ** 3 });
        userId = user.id;
        sessionToken = await createSession(deps, user);
      });

      afterAll(async () => {
        await server?.stop();
        await ServerProcess.killAll();
        await closeServices(deps);
        await s3?.stop();
        await scratch.drop();
        rmSync(dataDir, { recursive: true, force: true });
      });

      async function startServer(): Promise<void> {
        server = await ServerProcess.start(env);
        client = new SignedInClient(server, sessionToken);
        await client.open();
      }

      it(
        `stays consistent through ${rounds} kill -9 rounds during ${UPLOADS} concurrent uploads`,
        // A hang guard, not a speed check: a loaded CI machine took past a minute a round.
        { timeout: 120_000 + rounds * 120_000 },
        async () => {
          await startServer();
          for (let round = 1; round <= rounds; round++) {
            const killPoint = SOAK_ROUNDS ? 0.05 + Math.random() * 0.9 : KILL_POINTS[storage][round - 1]!;
            const batch = Array.from({ length: UPLOADS }, (_, i) => {
              // One to six chunks, the last one partial.
              const size = (i % 6) * CHUNK + randomInt(1, CHUNK + 1);
              return new ChunkedUpload(`round-${round}-${i}.bin`, randomBytes(size), CHUNK);
            });
            uploads.push(...batch);

            await uploadUntilKilled(batch, killPoint);
            await startServer();
            const state = await consistentState();
            const { filedUnanswered, storedUnanswered } = assertNothingAcknowledgedLost(batch, state);
            const completing = state.sessions.filter((s) => s.storage_key !== null).length;
            await assertFilesIntact();

            // Every other upload the client saw unfinished goes on from the chunk after the last one
            // answered, whatever the server stored after it; the others are abandoned.
            const unfinished = batch.filter((upload) => upload.acknowledged < upload.chunkCount);
            const resumed = unfinished.filter((_, i) => i % 2 === 0);
            await Promise.all(
              resumed.map(async (upload) => {
                for (let index = upload.acknowledged; index < upload.chunkCount; index++)
                  await upload.send(client, index);
              }),
            );
            // A file filed without its answer is answered with that same file when its last chunk comes again.
            for (const upload of resumed.filter((u) => filedUnanswered.has(u)))
              expect(upload.fileId, upload.name).toBe(filedUnanswered.get(upload));
            const abandoned = unfinished.filter((upload) => !resumed.includes(upload));
            const dayLater = new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000);
            expect(await deps.uploads.sweepAbandoned(ABANDONED_UPLOAD_MS, dayLater)).toBe(
              abandoned.filter((upload) => state.sessions.some((s) => s.client_key === upload.key)).length,
            );

            const swept = await consistentState();
            expect(swept.sessions).toEqual([]);
            expect([...swept.stored.uploads]).toEqual([]);
            expect(swept.usage.reserved_bytes).toBe(0);
            await assertFilesIntact();
            console.log(
              `crash consistency [${database}, ${storage}] round ${round}/${rounds}: killed after ` +
                `${Math.round(killPoint * 100)} % of the chunks; ${batch.length - unfinished.length} filed, ` +
                `${resumed.length} resumed, ${abandoned.length} abandoned; caught ${storedUnanswered} stored but ` +
                `unanswered (${filedUnanswered.size} of them filed), ` +
                `${completing} completing`,
            );
          }
          console.log(`crash consistency [${database}, ${storage}]: ${rounds} rounds run`);
        },
      );

      /** Sends every upload's chunks in turn, all uploads at once, and kills the server mid-way. */
      async function uploadUntilKilled(batch: ChunkedUpload[], killPoint: number): Promise<void> {
        const chunks = batch.reduce((sum, upload) => sum + upload.chunkCount, 0);
        const killAfter = Math.max(1, Math.round(chunks * killPoint));
        let answered = 0;
        let killed: Promise<void> | null = null;
        await Promise.all(
          batch.map(async (upload) => {
            while (!killed && upload.acknowledged < upload.chunkCount) {
              try {
                await upload.send(client, upload.acknowledged);
              } catch (error) {
                // The connections the kill cut are expected; an answer the server should not give is not.
                if (killed && !(error instanceof UnexpectedAnswer)) return;
                throw error;
              }
              if (++answered === killAfter) killed = server!.kill();
            }
          }),
        );
        await killed;
      }

      async function storedState() {
        const db = deps.database.db;
        const [sessions, files, usage] = await Promise.all([
          db.selectFrom('upload_sessions').selectAll().where('user_id', '=', userId).execute(),
          db
            .selectFrom('items')
            .select(['id', 'name', 'size', 'storage_key'])
            .where('user_id', '=', userId)
            .where('type', '=', 'file')
            .execute(),
          db
            .selectFrom('storage_usage')
            .select(['used_bytes', 'reserved_bytes'])
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow(),
        ]);
        const stored = s3 ? await s3StoredBytes(s3) : await localStoredBytes(path.join(dataDir, 'storage'));
        // Read after the listing: a block's row is written before its object, so every block object
        // listed is named here (the blockify job goes on in the restarted server meanwhile).
        const blocks = await db
          .selectFrom('blocks')
          .select('storage_key')
          .where('user_id', '=', userId)
          .execute();
        return { sessions, files, usage, stored, blockKeys: blocks.map((block) => block.storage_key) };
      }

      /**
       * A file's bytes are its object, or, once the blockify job has made them blocks (and deleted the
       * object), blocks that are live and stored, of the file's size in all. Read now, after the
       * listing, so a file made blocks since is checked as blocks.
       */
      async function assertStored({ files, stored }: Awaited<ReturnType<typeof storedState>>) {
        const db = deps.database.db;
        const storage = await deps.storage.current();
        for (const file of files) {
          if (stored.objects.get(file.storage_key!) === file.size) continue;
          const content = await db
            .selectFrom('file_contents')
            .select(['id', 'layout'])
            .where('storage_key', '=', file.storage_key!)
            .executeTakeFirst();
          expect(content?.layout, `${file.name}: no object of its size, and not blocks`).toBe('blocks');
          const blocks = await db
            .selectFrom('content_blocks')
            .innerJoin('blocks', 'blocks.id', 'content_blocks.block_id')
            .select(['blocks.storage_key', 'blocks.state', 'blocks.size', 'blocks.stored_size'])
            .where('content_blocks.content_id', '=', content!.id)
            .execute();
          expect(
            blocks.reduce((sum, block) => sum + Number(block.size), 0),
            file.name,
          ).toBe(file.size);
          for (const block of blocks) {
            expect(block.state, file.name).toBe('live');
            expect((await storage.stat(block.storage_key))?.size, file.name).toBe(
              Number(block.stored_size ?? block.size),
            );
          }
        }
      }

      /**
       * The stored state once it is consistent. The restarted server's blockify jobs go on while it is
       * read (a block being written is a file in tmp/, a content made blocks loses its object), so a
       * state caught mid-write is read again; what a kill left wrong stays wrong and fails.
       */
      async function consistentState() {
        const deadline = Date.now() + 15_000;
        for (;;) {
          try {
            const state = await storedState();
            await assertConsistent(state);
            return state;
          } catch (error) {
            if (Date.now() > deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      }

      /** No phantom files either way, and the quota counts what is there. */
      async function assertConsistent(state: Awaited<ReturnType<typeof storedState>>) {
        const { sessions, files, usage, stored, blockKeys } = state;
        await assertStored(state);
        // An object no file or block names may only be a completion in progress, which its session records.
        const owned = new Set([
          ...files.map((f) => f.storage_key),
          ...sessions.map((s) => s.storage_key),
          ...blockKeys,
        ]);
        expect([...stored.objects.keys()].filter((key) => !owned.has(key))).toEqual([]);
        const sessionIds = new Set(sessions.map((s) => s.id));
        expect([...stored.uploads].filter((id) => !sessionIds.has(id))).toEqual([]);
        expect(stored.other).toEqual([]);

        expect(usage.used_bytes).toBe(files.reduce((sum, f) => sum + f.size, 0));
        expect(usage.reserved_bytes).toBe(sessions.reduce((sum, s) => sum + s.reserved_bytes, 0));
        for (const session of sessions)
          expect(session.reserved_bytes).toBeGreaterThanOrEqual(session.received_bytes);
      }

      /**
       * Every acknowledged chunk is kept and at most the one on its way besides; a file filed without
       * its answer counts as filed. Answers those files, and how many uploads the kill caught in that
       * narrow window: a chunk stored (or a file filed) but not answered.
       */
      function assertNothingAcknowledgedLost(
        batch: ChunkedUpload[],
        { sessions, files }: { sessions: UploadSessionRow[]; files: { id: string; name: string }[] },
      ) {
        const filedUnanswered = new Map<ChunkedUpload, string>();
        let storedUnanswered = 0;
        for (const upload of batch) {
          const file = files.find((f) => f.name === upload.name);
          const session = sessions.find((s) => s.client_key === upload.key);
          if (upload.fileId) expect(file?.id, upload.name).toBe(upload.fileId);
          if (file) {
            expect(session, upload.name).toBeUndefined();
            if (!upload.fileId) filedUnanswered.set(upload, file.id);
            upload.fileId = file.id;
            continue;
          }
          const stored = session ? session.received_bytes / CHUNK : 0;
          expect([upload.acknowledged, upload.acknowledged + 1], upload.name).toContain(stored);
          if (stored > upload.acknowledged) storedUnanswered++;
        }
        return { filedUnanswered, storedUnanswered: storedUnanswered + filedUnanswered.size };
      }

      /**
       * Every filed file, downloaded from the server, is its source byte for byte; the one count of bytes
       * used (storage_usage) counts them all, as the user resource, the storage page and the quota read it.
       */
      async function assertFilesIntact(): Promise<void> {
        let total = 0;
        for (const upload of uploads.filter((u) => u.fileId)) {
          const answer = await client.get(`/file/${upload.fileId}`);
          expect(answer.status, upload.name).toBe(200);
          expect(sha256(answer.body), upload.name).toBe(upload.sha256);
          total += upload.data.length;
        }
        const user = UserResource.parse(JSON.parse((await client.get('/api/user')).body.toString()));
        expect(user.meta.usages.used).toBe(total);
        const storagePage = StorageUsage.parse(
          JSON.parse((await client.get('/api/user/storage')).body.toString()),
        );
        expect(storagePage.data.used).toBe(total);
        expect((await deps.limits.of(userId)).used).toBe(total);
      }
    });
  }
}
