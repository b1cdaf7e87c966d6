import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from '../support/databases';
import { waitFor } from '../jobs/support/wait-for';
import { startRealtimeCluster, type RealtimeCluster } from './support/cluster';
import { connectSocket, recordEvents, type ClientSocket } from './support/sockets';

const here = path.dirname(fileURLToPath(import.meta.url));
const redisUrl = process.env.REDIS_URL;
// PostgreSQL when configured (the scaled-out shape), else one SQLite file shared by the processes.
const databaseKind = databaseKinds.at(-1)!;

type SeededUser = RealtimeCluster['users'][number];

describe.skipIf(!redisUrl)(
  `realtime across processes (two API processes and a worker on one Redis, ${databaseKind})`,
  () => {
    let scratch: ScratchDatabase;
    let cluster: RealtimeCluster;
    const sockets: ClientSocket[] = [];
    let alice: SeededUser;
    let bob: SeededUser;
    let admin: SeededUser;

    beforeAll(async () => {
      scratch = await createScratchDatabase(databaseKind);
      cluster = await startRealtimeCluster({
        databaseUrl: scratch.url,
        redisUrl: redisUrl!,
        workerScript: path.join(here, 'fixtures/notifying-worker.ts'),
        users: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Admin', role: 'admin' }],
      });
      [alice, bob, admin] = cluster.users as [SeededUser, SeededUser, SeededUser];
    }, 90_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await cluster?.stop();
      await scratch.drop();
    });

    async function tab(apiUrl: string, { session }: SeededUser) {
      const socket = await connectSocket(apiUrl, { session });
      sockets.push(socket);
      return recordEvents(socket);
    }

    it("delivers a worker's event to the user's tabs on every API process, and to nobody else", async () => {
      const aliceOnFirst = await tab(cluster.apiUrls[0]!, alice);
      const aliceOnSecond = await tab(cluster.apiUrls[1]!, alice);
      const bobOnSecond = await tab(cluster.apiUrls[1]!, bob);

      cluster.worker.child.stdin!.write(
        `${JSON.stringify({ userId: alice.user.id, title: 'Your upload is done' })}\n`,
      );
      await waitFor('the worker to notify Alice', () =>
        cluster.worker.output.find((l) => l.startsWith('notified ')),
      );
      cluster.worker.child.stdin!.write(
        `${JSON.stringify({ userId: bob.user.id, title: 'Marker for Bob' })}\n`,
      );

      await waitFor('Alice’s tab on API 1', () => aliceOnFirst.length > 0);
      await waitFor('Alice’s tab on API 2', () => aliceOnSecond.length > 0);
      await waitFor('Bob’s marker', () => bobOnSecond.length > 0);
      const notifiedId = cluster.worker.output
        .find((l) => l.startsWith('notified '))!
        .slice('notified '.length);
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
      const adminOnFirst = await tab(cluster.apiUrls[0]!, admin);
      // The request goes to API 2; the admin's browser is connected to API 1.
      // The XSRF token is minted for the session, as the browser's first request would get it.
      const ping = await fetch(`${cluster.apiUrls[1]}/api/ping`, {
        headers: { cookie: `atelier_session=${admin.session}` },
      });
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(ping.headers.get('set-cookie') ?? '')![1]!;
      const res = await fetch(`${cluster.apiUrls[1]}/api/admin/test-websockets`, {
        method: 'POST',
        headers: {
          cookie: `atelier_session=${admin.session}; XSRF-TOKEN=${xsrf}`,
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
