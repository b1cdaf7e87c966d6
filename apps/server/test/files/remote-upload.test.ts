import type { ItemResource, NotificationResource, RealtimePayload } from '@atelier/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-queue';
import { filesJobDefinitions } from '../../src/modules/files/files.module';
import type { RemoteFetchError } from '../../src/modules/files/remote-fetch';
import type { Broadcaster } from '../../src/realtime/realtime.server';
import type { TestAgent } from '../support/agent';
import { createUser, signedInAgent } from '../support/factories';
import { createFilesTestApp, filesMatrix, type FilesTestApp, type StorageKind } from './files-harness';
import { redirect, serve, startOrigin, type Origin } from './remote-origin';
import type { DatabaseKind } from '../support/databases';

const CHUNK = 64 * 1024;
type RemoteEvent = RealtimePayload<'RemoteFile.Created'>;

/** An app whose worker runs the jobs, its realtime events recorded. */
interface Running extends FilesTestApp {
  events: MockInstance<Broadcaster['emitToUser']>;
  stop(): Promise<void>;
}

async function startApp(database: DatabaseKind, storage: StorageKind, allowed?: string): Promise<Running> {
  const env: Record<string, string> = allowed ? { REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES: allowed } : {};
  const t = await createFilesTestApp(database, storage, { chunk_size: CHUNK }, undefined, env);
  // Not the blockify job: it turns earlier uploads' objects into blocks whenever it gets to them, and so
  // changes the stored objects these tests compare before and after a refused upload (blockify.test).
  const definitions = filesJobDefinitions.filter((job) => job.id !== 'files.blockify');
  const worker: JobWorker = t.deps.jobs.startWorker({ definitions, services: t.deps });
  return {
    ...t,
    events: vi.spyOn(t.deps.realtime, 'emitToUser'),
    async stop() {
      await worker.close();
      await t.close();
    },
  };
}

/** Asks for a remote upload and waits until every address settled and the notification came. */
async function remoteUpload(
  t: Running,
  agent: TestAgent,
  urls: string[],
  parentId?: string,
  conflict?: 'keep-both' | 'replace',
): Promise<{ events: RemoteEvent[]; notification: NotificationResource }> {
  const answer = await agent.post('/api/upload/remote', { urls, parent_id: parentId, conflict });
  expect(answer.statusCode, answer.body).toBe(202);
  const { id, total } = answer.json().data as { id: string; total: number };
  expect(total).toBe(urls.length);
  const events = () =>
    t.events.mock.calls
      .filter(
        ([, event, payload]) => event === 'RemoteFile.Created' && (payload as RemoteEvent).upload_id === id,
      )
      .map(([, , payload]) => payload as RemoteEvent);
  let notification: NotificationResource | undefined;
  await vi.waitFor(
    async () => {
      expect(events().length).toBe(total);
      const list = (await agent.get('/api/notifications')).json().data as NotificationResource[];
      notification = list.find((n) => n.attributes.category === 'remote-upload-done');
      expect(notification).toBeDefined();
    },
    { timeout: 30_000, interval: 100 },
  );
  return { events: events(), notification: notification! };
}

for (const [database, storage] of filesMatrix) {
  describe(`remote upload [${database}, ${storage}]`, () => {
    let origin: Origin;
    /** On ::1, outside the 127.0.0.0/8 the allowing app accepts. */
    let trap: Origin;
    const photo = sharp({ create: { width: 120, height: 80, channels: 3, background: '#3a7' } }).png();
    const blob = randomBytes(3 * CHUNK + 123);
    let png: Buffer;
    /** `/gated` sends two pieces of `blob` at once and the rest once this is called: the first is kept meanwhile. */
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));

    /** Nothing private allowed: the default. */
    let guarded: Running;
    /** 127.0.0.0/8 allowed, as an operator would allow an intranet. */
    let allowing: Running;

    beforeAll(async () => {
      png = await photo.toBuffer();
      origin = await startOrigin('127.0.0.1', {
        '/files/blob.bin': serve(blob),
        '/report': serve(Buffer.from('quarterly figures\n'), {
          'content-disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
        }),
        '/photo': serve(png, {}, true),
        '/big-declared': serve(randomBytes(150_000)),
        '/big-streamed': serve(randomBytes(150_000), {}, true),
        '/tool': serve(Buffer.concat([Buffer.from('MZ'), randomBytes(2 * CHUNK)])),
        '/to': redirect,
        '/empty': serve(Buffer.alloc(0)),
        '/gated': (_request, response) => {
          response.writeHead(200, { 'content-length': String(blob.length) });
          response.write(blob.subarray(0, 2 * CHUNK));
          void gate.then(() => response.end(blob.subarray(2 * CHUNK)));
        },
      });
      trap = await startOrigin('::1', { '/': serve(Buffer.from('secret')) });
      [guarded, allowing] = await Promise.all([
        startApp(database, storage),
        startApp(database, storage, '127.0.0.0/8'),
      ]);
    });
    afterAll(async () => {
      await Promise.all([guarded?.stop(), allowing?.stop()]);
      await Promise.all([origin?.close(), trap?.close()]);
    });

    async function usedBytes(agent: TestAgent): Promise<number> {
      return (await agent.get('/api/user/storage')).json().data.used as number;
    }

    describe('by default', () => {
      it('never connects to loopback, however the address is written', async () => {
        const { agent } = await signedInAgent(guarded.app);
        const before = await guarded.storedObjects();
        const { port } = origin;
        const urls = [
          `http://127.0.0.1:${port}/files/blob.bin`,
          `http://2130706433:${port}/files/blob.bin`,
          `http://0177.0.0.1:${port}/files/blob.bin`,
          `http://0x7f.1:${port}/files/blob.bin`,
          `http://0x7f000001:${port}/files/blob.bin`,
          `http://127.1:${port}/files/blob.bin`,
          `http://[::ffff:127.0.0.1]:${port}/files/blob.bin`,
          `http://[::ffff:7f00:1]:${port}/files/blob.bin`,
          `http://[::127.0.0.1]:${port}/files/blob.bin`,
          `http://[::1]:${trap.port}/`,
          `http://[0:0:0:0:0:0:0:1]:${trap.port}/`,
          `http://0.0.0.0:${port}/files/blob.bin`,
        ];
        const logged = vi.spyOn(guarded.deps.logger, 'info');
        const { events, notification } = await remoteUpload(guarded, agent, urls);
        expect(events.at(-1)!.progress).toEqual({
          total: urls.length,
          processed: urls.length,
          failed: urls.length,
        });
        // Each refused for where it points, before any connection.
        const reasons = logged.mock.calls.map(
          ([fields]) => (fields as { err?: RemoteFetchError }).err?.reason,
        );
        logged.mockRestore();
        expect(reasons).toEqual(urls.map(() => 'address'));
        expect(events.every((event) => event.file === null)).toBe(true);
        expect(origin.hits).toEqual([]);
        expect(trap.hits).toEqual([]);
        expect(await guarded.storedObjects()).toEqual(before);
        expect(notification.attributes.description).toBe(
          `0 of ${urls.length} files from your links are in the folder; ${urls.length} could not be downloaded.`,
        );
      });

      it('never connects to a host name that resolves to loopback', async () => {
        const { agent } = await signedInAgent(guarded.app);
        const { events } = await remoteUpload(guarded, agent, [
          `http://localhost:${origin.port}/files/blob.bin`,
          `http://LOCALHOST.:${origin.port}/files/blob.bin`,
        ]);
        expect(events.at(-1)!.progress).toEqual({ total: 2, processed: 2, failed: 2 });
        expect(origin.hits).toEqual([]);
      });
    });

    describe('with 127.0.0.0/8 allowed', () => {
      it('stores the files of three addresses in the folder, byte for byte, and tells the user', async () => {
        const { agent, user } = await signedInAgent(allowing.app);
        const folder = (await agent.post('/api/create-folder', { name: 'From the web' })).json().data;
        const hitsBefore = origin.hits.length;
        const { events, notification } = await remoteUpload(
          allowing,
          agent,
          [`${origin.url}/files/blob.bin`, `${origin.url}/report?lang=en`, `${origin.url}/photo`],
          folder.id,
        );
        expect(origin.hits.length - hitsBefore).toBe(3);

        // Two addresses are fetched at a time, so the order of arrival may vary; the counts may not.
        expect(events.map((e) => e.progress)).toEqual(
          [1, 2, 3].map((processed) => ({ total: 3, processed, failed: 0 })),
        );
        const recipients = allowing.events.mock.calls
          .filter(([, , payload]) => events.includes(payload as RemoteEvent))
          .map(([to]) => to);
        expect(recipients).toEqual([user.id, user.id, user.id]);
        const byName = new Map(events.map((e) => [e.file!.attributes.name as string, e.file!]));
        expect([...byName.keys()].sort()).toEqual(['blob.bin', 'photo', 'résumé.txt']);
        expect(byName.get('photo')!.attributes).toMatchObject({
          mimetype: 'image/png',
          parent_id: folder.id,
        });

        const listed = (await agent.get(`/api/browse/folders/${folder.id}`)).json().data as {
          id: string;
          attributes: { name: string; filesize: number };
        }[];
        const bytes = async (name: string) =>
          (await agent.get(`/file/${listed.find((i) => i.attributes.name === name)!.id}`)).rawPayload;
        expect((await bytes('blob.bin')).equals(blob)).toBe(true);
        expect((await bytes('photo')).equals(png)).toBe(true);
        expect((await bytes('résumé.txt')).toString()).toBe('quarterly figures\n');
        expect(await usedBytes(agent)).toBe(blob.length + png.length + 18);

        expect(notification.attributes).toMatchObject({
          title: 'Remote upload finished',
          description: 'All 3 files from your links are in the folder.',
          action: { type: 'route', params: { route: 'Files', id: folder.id, button: 'Open folder' } },
        });
        // None left once the photo's thumbnail job, which holds its pictures under a reservation of
        // its own while it makes them, is done too.
        await vi.waitFor(async () => {
          const sessions = await allowing.deps.database.db
            .selectFrom('upload_sessions')
            .selectAll()
            .execute();
          expect(sessions).toEqual([]);
        });
      });

      it('onto a name the folder holds keeps both by default, and replace keeps the old bytes as a version', async () => {
        const { agent } = await signedInAgent(allowing.app);
        const folder = (await agent.post('/api/create-folder', { name: 'Fetched twice' })).json().data;
        const url = `${origin.url}/files/blob.bin`;
        await remoteUpload(allowing, agent, [url], folder.id);
        await remoteUpload(allowing, agent, [url], folder.id);
        const names = async () =>
          ((await agent.get(`/api/browse/folders/${folder.id}`)).json().data as ItemResource[])
            .map((item) => item.attributes.name)
            .sort();
        expect(await names()).toEqual(['blob (1).bin', 'blob.bin']);

        const { events } = await remoteUpload(allowing, agent, [url], folder.id, 'replace');
        expect(await names()).toEqual(['blob (1).bin', 'blob.bin']);
        const replaced = events[0]!.file!;
        expect(replaced.attributes.name).toBe('blob.bin');
        const versions = (await agent.get(`/api/files/${replaced.id}/versions`)).json().data as unknown[];
        expect(versions).toHaveLength(2);
      });

      it('keeps nothing more for a member taken off the team folder while an address is fetched', async () => {
        const owner = await signedInAgent(allowing.app);
        const member = await signedInAgent(allowing.app);
        const team = (await owner.agent.post('/api/create-folder', { name: 'Team drop' })).json().data.id;
        const now = new Date().toISOString();
        await allowing.deps.database.db
          .insertInto('team_folders')
          .values({ folder_id: team, user_id: owner.user.id, created_at: now })
          .execute();
        await allowing.deps.database.db
          .insertInto('team_members')
          .values({ folder_id: team, user_id: member.user.id, permission: 'can_edit', created_at: now })
          .execute();

        const asked = remoteUpload(allowing, member.agent, [`${origin.url}/gated`], team);
        // The first pieces are kept while the rest of the body has yet to come.
        await vi.waitFor(
          async () => {
            const sessions = await allowing.deps.database.db
              .selectFrom('upload_sessions')
              .select('received_bytes')
              .where('user_id', '=', owner.user.id)
              .execute();
            expect(sessions.map((session) => Number(session.received_bytes))).toEqual([CHUNK]);
          },
          { timeout: 15_000, interval: 50 },
        );
        const removed = await owner.agent.patch(`/api/teams/folders/${team}`, {
          remove_members: [member.user.id],
        });
        expect(removed.statusCode, removed.body).toBe(200);
        openGate();

        const { events } = await asked;
        expect(events.map((event) => event.progress)).toEqual([{ total: 1, processed: 1, failed: 1 }]);
        expect((await owner.agent.get(`/api/browse/folders/${team}`)).json().data).toEqual([]);
        const sessions = await allowing.deps.database.db.selectFrom('upload_sessions').selectAll().execute();
        expect(sessions).toEqual([]);
      });

      it('checks every redirect again: one to an address outside the allowed range is not followed', async () => {
        const { agent } = await signedInAgent(allowing.app);
        const to = (target: string) => `${origin.url}/to?to=${encodeURIComponent(target)}`;
        const { events } = await remoteUpload(allowing, agent, [
          to(`http://[::1]:${trap.port}/`),
          to(`http://[::ffff:169.254.169.254]:${trap.port}/latest/meta-data`),
          to(`http://10.0.0.1:${trap.port}/`),
          to(`file:///etc/passwd`),
        ]);
        expect(events.at(-1)!.progress).toEqual({ total: 4, processed: 4, failed: 4 });
        expect(trap.hits).toEqual([]);
      });

      it('follows at most three redirects', async () => {
        const { agent } = await signedInAgent(allowing.app);
        const hops = (count: number) => {
          let url = `${origin.url}/report`;
          for (let i = 0; i < count; i++) url = `${origin.url}/to?to=${encodeURIComponent(url)}`;
          return url;
        };
        const { events } = await remoteUpload(allowing, agent, [hops(3), hops(4)]);
        expect(events.at(-1)!.progress).toEqual({ total: 2, processed: 2, failed: 1 });
        expect(events.filter((e) => e.file).map((e) => e.file!.attributes.name)).toEqual(['résumé.txt']);
      });

      it('fails what the upload rules refuse and keeps nothing of it: upload limit, quota, blacklist, empty', async () => {
        const { agent } = await signedInAgent(allowing.app);
        const { user: small } = await createUser(allowing.deps, { storageCapacity: 100_000 });
        const { agent: near } = await signedInAgent(allowing.app, small);
        const before = await allowing.storedObjects();
        const refused = async (who: TestAgent, urls: string[]) => {
          const { events } = await remoteUpload(allowing, who, urls);
          expect(events.at(-1)!.progress).toEqual({
            total: urls.length,
            processed: urls.length,
            failed: urls.length,
          });
          expect(await allowing.storedObjects()).toEqual(before);
          expect(await usedBytes(who)).toBe(0);
        };

        await allowing.deps.settings.set({ upload_limit: 120_000 });
        try {
          await refused(agent, [`${origin.url}/big-declared`, `${origin.url}/big-streamed`]);
        } finally {
          await allowing.deps.settings.set({ upload_limit: 0 });
        }
        // 150,000 bytes against a quota of 100,000, whether the size is declared or not.
        await refused(near, [`${origin.url}/big-declared`, `${origin.url}/big-streamed`]);

        await allowing.deps.settings.set({ mimetypes_blacklist: ['application/x-msdownload'] });
        try {
          await refused(agent, [`${origin.url}/tool`]);
        } finally {
          await allowing.deps.settings.set({ mimetypes_blacklist: [] });
        }
        await refused(agent, [`${origin.url}/empty`, `${origin.url}/missing`]);
        const sessions = await allowing.deps.database.db.selectFrom('upload_sessions').selectAll().execute();
        expect(sessions).toEqual([]);
      });
    });

    describe('the request', () => {
      it('answers 422 to addresses that are missing, too many, or not http(s), and queues nothing', async () => {
        const { agent } = await signedInAgent(guarded.app);
        const page = 'https://example.com/a.png';
        const bodies = [
          {},
          { urls: [] },
          { urls: 'https://example.com/a.png' },
          { urls: Array.from({ length: 51 }, () => page) },
          { urls: ['ftp://example.com/a.png'] },
          { urls: ['javascript:alert(1)'] },
          { urls: ['file:///etc/passwd'] },
          { urls: ['example.com/a.png'] },
          { urls: [`https://example.com/${'a'.repeat(2100)}`] },
          { urls: [42] },
        ];
        const jobs = async () =>
          (await guarded.deps.database.db.selectFrom('jobs').select('id').execute()).length;
        const queued = await jobs();
        for (const body of bodies) {
          const answer = await agent.post('/api/upload/remote', body);
          expect(answer.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
          expect(answer.json().code).toBe('validation_failed');
        }
        expect(await jobs()).toBe(queued);
      });

      it('answers 404 for a folder that is not the caller’s, and 401 to anyone signed out', async () => {
        const { agent: owner } = await signedInAgent(guarded.app);
        const folder = (await owner.post('/api/create-folder', { name: 'Mine' })).json().data;
        const { agent: stranger } = await signedInAgent(guarded.app);
        const body = { urls: ['https://example.com/a.png'], parent_id: folder.id };
        expect((await stranger.post('/api/upload/remote', body)).statusCode).toBe(404);
        owner.clearCookies();
        await owner.get('/api/ping');
        expect((await owner.post('/api/upload/remote', body)).statusCode).toBe(401);
      });
    });
  });
}
