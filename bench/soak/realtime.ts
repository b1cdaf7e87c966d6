import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase } from '../../apps/server/test/support/databases';
import { startRealtimeCluster, type RealtimeCluster } from '../../apps/server/test/realtime/support/cluster';
import { connectSocket, type ClientSocket } from '../../apps/server/test/realtime/support/sockets';
import type { CreatedNotifications } from './notifying-worker';
import { wallClockMs } from './wall-clock';

// Realtime across processes: two SERVICES=api processes and a SERVICES=worker process on one Redis
// and one PostgreSQL database; 100 Socket.IO clients, 5 tabs for each of 20 users spread over both
// API processes. The worker creates the notifications through the notifications service, so every
// event crosses Redis. Each tab must receive exactly its user's notifications, each once, in the
// order they were created: anything lost, misdelivered, repeated or out of order fails the run.

const USERS = 20;
const TABS_PER_USER = 5;
const NOTIFICATIONS = Number(process.env.SOAK_REALTIME_NOTIFICATIONS ?? 10_000);
/** A run ends this long after the last delivery when some are still missing. */
const QUIET_MS = 10_000;
/** Time for late strays (repeats, another user's events) to show up once every delivery arrived. */
const SETTLE_MS = 1_000;

interface Tab {
  userId: string;
  api: number;
  socket: ClientSocket;
  received: Array<{ id: string; at: number }>;
  disconnects: number;
}

interface Verdict {
  lost: number;
  misdelivered: number;
  repeated: number;
  outOfOrder: number;
  /** From notify() being called (the row insert included) to the event at the socket, sorted. */
  sinceCreation: number[];
  /** From notify() returning (the event handed to Redis) to the event at the socket, sorted. */
  sincePublish: number[];
  lastDelivery: number;
}

const thousands = (n: number) => n.toLocaleString('en-US');
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function requiredVariable(name: string, purpose: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the realtime soak needs ${name} (${purpose})`);
  return value;
}

async function openTabs(cluster: RealtimeCluster): Promise<Tab[]> {
  const tabs = cluster.users.flatMap(({ user, session }, u) =>
    Array.from({ length: TABS_PER_USER }, async (_, k): Promise<Tab> => {
      // Alternating nodes: every user has tabs on both API processes.
      const api = (u * TABS_PER_USER + k) % cluster.apiUrls.length;
      const socket = await connectSocket(cluster.apiUrls[api]!, { session });
      const tab: Tab = { userId: user.id, api, socket, received: [], disconnects: 0 };
      socket.on('notification', ({ id }) => tab.received.push({ id, at: wallClockMs() }));
      socket.on('disconnect', () => (tab.disconnects += 1));
      return tab;
    }),
  );
  return Promise.all(tabs);
}

/** Waits for the worker's report and for every delivery, or for deliveries to stop coming. */
async function awaitDeliveries(cluster: RealtimeCluster, tabs: Tab[], expected: number) {
  const report = () => cluster.worker.output.find((line) => line.startsWith('created '));
  let delivered = 0;
  let lastProgress = Date.now();
  for (;;) {
    await sleep(50);
    const now = tabs.reduce((sum, tab) => sum + tab.received.length, 0);
    if (now !== delivered) [delivered, lastProgress] = [now, Date.now()];
    const created = report();
    if (created && delivered >= expected) break;
    if (!created && cluster.worker.child.exitCode !== null)
      throw new Error(
        `the worker exited (${cluster.worker.child.exitCode}) before creating every notification`,
      );
    if (Date.now() - lastProgress > QUIET_MS) {
      if (created) break;
      throw new Error(`no delivery for ${QUIET_MS / 1000} s while the worker was still creating`);
    }
  }
  await sleep(SETTLE_MS);
  return JSON.parse(report()!.slice('created '.length)) as CreatedNotifications;
}

function judge(tabs: Tab[], created: CreatedNotifications): Verdict {
  const origins = new Map<string, { userId: string; index: number; calledAt: number; returnedAt: number }>();
  for (const [userId, notifications] of Object.entries(created))
    notifications.forEach(({ id, ...times }, index) => origins.set(id, { userId, index, ...times }));
  const verdict: Verdict = {
    lost: 0,
    misdelivered: 0,
    repeated: 0,
    outOfOrder: 0,
    sinceCreation: [],
    sincePublish: [],
    lastDelivery: 0,
  };
  for (const tab of tabs) {
    const seen = new Set<string>();
    let lastIndex = -1;
    for (const { id, at } of tab.received) {
      const origin = origins.get(id);
      if (origin?.userId !== tab.userId) verdict.misdelivered += 1;
      else if (seen.has(id)) verdict.repeated += 1;
      else {
        seen.add(id);
        if (origin.index < lastIndex) verdict.outOfOrder += 1;
        lastIndex = Math.max(lastIndex, origin.index);
        verdict.sinceCreation.push(at - origin.calledAt);
        verdict.sincePublish.push(at - origin.returnedAt);
        verdict.lastDelivery = Math.max(verdict.lastDelivery, at);
      }
    }
    verdict.lost += (created[tab.userId]?.length ?? 0) - seen.size;
  }
  verdict.sinceCreation.sort((a, b) => a - b);
  verdict.sincePublish.sort((a, b) => a - b);
  return verdict;
}

export async function run(): Promise<void> {
  const redisUrl = requiredVariable('REDIS_URL', 'the Redis every process shares');
  const postgresUrl = requiredVariable('TEST_DATABASE_URL', 'a PostgreSQL server for a scratch database');
  if (!(NOTIFICATIONS >= USERS)) throw new Error(`SOAK_REALTIME_NOTIFICATIONS must be a number ≥ ${USERS}`);
  const perUser = Math.ceil(NOTIFICATIONS / USERS);
  const notifications = perUser * USERS;
  const database = await createPostgresDatabase(postgresUrl);
  let cluster: RealtimeCluster | undefined;
  let tabs: Tab[] = [];
  try {
    cluster = await startRealtimeCluster({
      databaseUrl: database.url,
      redisUrl,
      workerScript: path.join(path.dirname(fileURLToPath(import.meta.url)), 'notifying-worker.ts'),
      users: Array.from({ length: USERS }, (_, i) => ({ name: `Soak user ${i + 1}` })),
    });
    tabs = await openTabs(cluster);
    const perApi = cluster.apiUrls.map((_, api) => tabs.filter((tab) => tab.api === api).length);
    console.log(
      `2 API processes and 1 worker on Redis and PostgreSQL; ${tabs.length} sockets of ${USERS} users ` +
        `(${perApi.join(' + ')} per API process); ${thousands(notifications)} notifications`,
    );

    const started = wallClockMs();
    cluster.worker.child.stdin!.write(
      `${JSON.stringify({ users: cluster.users.map(({ user }) => user.id), perUser })}\n`,
    );
    const expected = notifications * TABS_PER_USER;
    const created = await awaitDeliveries(cluster, tabs, expected);
    const lastCreated = Math.max(...Object.values(created).flatMap((list) => list.map((n) => n.returnedAt)));
    const verdict = judge(tabs, created);
    const delivered = verdict.sinceCreation.length;
    const seconds = (verdict.lastDelivery - started) / 1000;
    const disconnects = tabs.reduce((sum, tab) => sum + tab.disconnects, 0);

    console.log(
      `created ${thousands(notifications)} notifications in ${((lastCreated - started) / 1000).toFixed(1)} s; ` +
        `delivered ${thousands(delivered)} of ${thousands(expected)} in ${seconds.toFixed(1)} s: ` +
        `${thousands(Math.round(delivered / seconds))} deliveries/s`,
    );
    if (delivered > 0) {
      const figures = (sorted: number[]) =>
        [50, 99, 100]
          .map((p) => `${p === 100 ? 'max' : `p${p}`} ${percentile(sorted, p).toFixed(1)} ms`)
          .join(', ');
      console.log(`latency from notify() called (row insert included): ${figures(verdict.sinceCreation)}`);
      console.log(
        `latency from notify() returned (Redis, API process, socket): ${figures(verdict.sincePublish)}`,
      );
    }
    console.log(
      `lost ${verdict.lost}, misdelivered ${verdict.misdelivered}, repeated ${verdict.repeated}, ` +
        `out of order ${verdict.outOfOrder}, sockets disconnected ${disconnects}`,
    );
    const failures =
      verdict.lost + verdict.misdelivered + verdict.repeated + verdict.outOfOrder + disconnects;
    if (failures > 0)
      throw new Error(
        'realtime soak failed: every notification must reach exactly its user’s tabs, once, in order',
      );
  } finally {
    for (const tab of tabs) tab.socket.close();
    await cluster?.stop();
    await database.drop();
  }
}
