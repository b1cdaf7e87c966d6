// The realtime soak's SERVICES=worker process. Reads one JSON line `{ users, perUser }`, creates
// `perUser` notifications for each user through the notifications service — one after another for
// a user, every user at once, as jobs of different owners run side by side — and answers one line:
// `created ` and, per user id, the created notifications' ids with the times notify() was called
// and returned (by then the row is stored and the event handed to Redis).
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startWorkerApp } from '../../apps/server/test/realtime/support/worker-app';
import { wallClockMs } from './wall-clock';

export type CreatedNotifications = Record<
  string,
  Array<{ id: string; calledAt: number; returnedAt: number }>
>;

const app = await startWorkerApp();
const input = createInterface({ input: process.stdin });
const [order] = (await once(input, 'line')) as [string];
input.close();
const { users, perUser } = JSON.parse(order) as { users: string[]; perUser: number };

const created: CreatedNotifications = {};
await Promise.all(
  users.map(async (userId) => {
    const mine: CreatedNotifications[string] = (created[userId] = []);
    for (let sequence = 1; sequence <= perUser; sequence += 1) {
      const calledAt = wallClockMs();
      const row = await app.deps.notifications.notify(userId, {
        category: 'remote-upload-done',
        title: `Soak notification ${sequence}`,
        description: '',
      });
      mine.push({ id: row.id, calledAt, returnedAt: wallClockMs() });
    }
  }),
);
process.stdout.write(`created ${JSON.stringify(created)}\n`);
await app.close();
