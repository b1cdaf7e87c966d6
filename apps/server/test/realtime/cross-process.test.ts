import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import type { UserRow } from '../../src/db/schema';
import { openPreparedDatabase } from '../../src/db/prepare';
import { parseEnv } from '../../src/env';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from '../support/databases';
import { createSession, createUser } from '../support/factories';
import {
  freePort,
  isListening,
  MAIN_SCRIPT,
  startProcess,
  type AppProcess,
} from '../jobs/support/app-processes';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents, type ClientSocket } from './support/sockets';

const here = path.dirname(fileURLToPath(import.meta.url));
const redisUrl = process.env.REDIS_URL;
// PostgreSQL when configured (the scaled-out shape), else one SQLite file shared by the processes.
const databaseKind = databaseKinds.at(-1)!;

describe.skipIf(!redisUrl)(
  `realtime across processes (two API processes and a worker on one Redis, ${databaseKind})`,
  () => {
    let scratch: ScratchDatabase;
    let dataDir: string;
    const processes: AppProcess[] = [];
    const sockets: ClientSocket[] = [];
    let apiUrls: string[];
    let worker: AppProcess;
    const sessions = new Map<string, string>();
    let alice: UserRow;
    let bob: UserRow;
    let admin: UserRow;

    beforeAll(async () => {
      scratch = await createScratchDatabase(databaseKind);
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-cluster-'));
      // Users and sessions, made through the app's own services before the cluster starts.
      const setupEnv = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const setupApp = await buildApp({
        env: setupEnv,
        database: await openPreparedDatabase(scratch.url),
        databasePinned: true,
        logger: false,
      });
      await setupApp.deps.settings.set({ installed: true, contact_email: 'ops@atelier.test' });
      alice = (await createUser(setupApp.deps, { name: 'Alice' })).user;
      bob = (await createUser(setupApp.deps, { name: 'Bob' })).user;
      admin = (await createUser(setupApp.deps, { name: 'Admin', role: 'admin' })).user;
      for (const user of [alice, bob, admin]) sessions.set(user.id, await createSession(setupApp.deps, user));
      await setupApp.close();

      const shared = {
        DATABASE_URL: scratch.url,
        REDIS_URL: redisUrl!,
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      };
      apiUrls = [];
      for (let i = 0; i < 2; i += 1) {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        processes.push(
          startProcess(MAIN_SCRIPT, {
            ...shared,
            SERVICES: 'api',
            PORT: String(port),
            HOST: '127.0.0.1',
            APP_URL: url,
          }),
        );
        apiUrls.push(url);
      }
      worker = startProcess(path.join(here, 'fixtures/notifying-worker.ts'), {
        ...shared,
        SERVICES: 'worker',
      });
      processes.push(worker);
      await waitFor('both API processes', () => processes.slice(0, 2).every(isListening), 60_000);
    }, 90_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await Promise.all(processes.map((p) => p.stop()));
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function tab(apiUrl: string, user: UserRow) {
      const socket = await connectSocket(apiUrl, { session: sessions.get(user.id)! });
      sockets.push(socket);
      return recordEvents(socket);
    }

    it("delivers a worker's event to the user's tabs on every API process, and to nobody else", async () => {
      const aliceOnFirst = await tab(apiUrls[0]!, alice);
      const aliceOnSecond = await tab(apiUrls[1]!, alice);
      const bobOnSecond = await tab(apiUrls[1]!, bob);

      worker.child.stdin!.write(`${JSON.stringify({ userId: alice.id, title: 'Your upload is done' })}\n`);
      await waitFor('the worker to notify Alice', () => worker.output.find((l) => l.startsWith('notified ')));
      worker.child.stdin!.write(`${JSON.stringify({ userId: bob.id, title: 'Marker for Bob' })}\n`);

      await waitFor('Alice’s tab on API 1', () => aliceOnFirst.length > 0);
      await waitFor('Alice’s tab on API 2', () => aliceOnSecond.length > 0);
      await waitFor('Bob’s marker', () => bobOnSecond.length > 0);
      const notifiedId = worker.output.find((l) => l.startsWith('notified '))!.slice('notified '.length);
      const expected = {
        event: 'notification',
        payload: {
          id: notifiedId,
          category: 'remote-upload-done',
          title: 'Your upload is done',
          description: 'from the worker',
          action: null,
        },
      };
      expect(aliceOnFirst).toEqual([expected]);
      expect(aliceOnSecond).toEqual([expected]);
      expect(bobOnSecond.map((e) => (e.payload as { title: string }).title)).toEqual(['Marker for Bob']);
    });

    it('answers the admin websocket test through another API process', async () => {
      const adminOnFirst = await tab(apiUrls[0]!, admin);
      // The request goes to API 2; the admin's browser is connected to API 1.
      const ping = await fetch(`${apiUrls[1]}/api/ping`);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(ping.headers.get('set-cookie') ?? '')![1]!;
      const res = await fetch(`${apiUrls[1]}/api/admin/test-websockets`, {
        method: 'POST',
        headers: {
          cookie: `atelier_session=${sessions.get(admin.id)}; XSRF-TOKEN=${xsrf}`,
          'x-xsrf-token': decodeURIComponent(xsrf),
        },
      });
      expect(res.status).toBe(204);
      await waitFor('the test event on API 1', () => adminOnFirst.length > 0);
      expect(adminOnFirst).toEqual([
        { event: 'TestWebsocketConnection', payload: { message: 'websocket_test' } },
      ]);
    });
  },
);
