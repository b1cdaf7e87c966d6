import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPreparedDatabase } from '../../src/db/prepare';
import { hashToken } from '../../src/lib/tokens';
import { UserTokensRepository } from '../../src/modules/auth/user-tokens.repository';
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
    let carol: SeededUser;

    beforeAll(async () => {
      scratch = await createScratchDatabase(databaseKind);
      cluster = await startRealtimeCluster({
        databaseUrl: scratch.url,
        redisUrl: redisUrl!,
        workerScript: path.join(here, 'fixtures/notifying-worker.ts'),
        users: [{ name: 'Alice' }, { name: 'Bob' }, { name: 'Admin', role: 'admin' }, { name: 'Carol' }],
      });
      [alice, bob, admin, carol] = cluster.users as [SeededUser, SeededUser, SeededUser, SeededUser];
    }, 90_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await cluster?.stop();
      await scratch.drop();
    });

    async function tab(apiUrl: string, { session }: SeededUser) {
      return recordEvents(await openSocket(apiUrl, session));
    }

    async function openSocket(apiUrl: string, session: string) {
      const socket = await connectSocket(apiUrl, { session });
      sockets.push(socket);
      return socket;
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

    it("closes the user's sockets on every API process as soon as a password reset on one ends their sessions", async () => {
      const onFirst = await openSocket(cluster.apiUrls[0]!, carol.session);
      const onSecond = await openSocket(cluster.apiUrls[1]!, carol.session);
      const disconnected = [onFirst, onSecond].map(
        (socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve)),
      );
      const token = randomBytes(16).toString('hex');
      const database = await openPreparedDatabase(scratch.url);
      try {
        await new UserTokensRepository(database, 'password_resets', () => new Date()).insert(
          carol.user.id,
          hashToken(token),
          new Date(Date.now() + 3_600_000),
        );
      } finally {
        await database.destroy();
      }

      // The reset link is followed on API 2, as a browser without a session would.
      const ping = await fetch(`${cluster.apiUrls[1]}/api/ping`);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(ping.headers.get('set-cookie') ?? '')![1]!;
      const res = await fetch(`${cluster.apiUrls[1]}/api/password/reset`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `XSRF-TOKEN=${xsrf}`,
          'x-xsrf-token': decodeURIComponent(xsrf),
        },
        body: JSON.stringify({
          token,
          email: carol.user.email,
          password: 'a brand new password',
          password_confirmation: 'a brand new password',
        }),
      });
      expect(res.status).toBe(200);
      // At once, not at the next check of open sockets, a minute away.
      await expect(
        Promise.race([Promise.all(disconnected), sleep(5_000).then(() => 'still connected')]),
      ).resolves.toEqual(['io server disconnect', 'io server disconnect']);
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
