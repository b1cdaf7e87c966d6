import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createSession, createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents, type ClientSocket } from '../realtime/support/sockets';

describeEachDatabase('admin: changes reach the person’s open tabs', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  let admin: { agent: TestAgent; user: UserRow };
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedInAgent(t.app, (await createUser(t.deps, { name: 'Ada', role: 'admin' })).user);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(() => t.close());

  async function tab(user: UserRow) {
    const socket = await connectSocket(baseUrl, { session: await createSession(t.deps, user) });
    sockets.push(socket);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    return { socket, events: recordEvents(socket), disconnected };
  }

  it('tells the person when their role or capacity changed, and nobody else', async () => {
    const { user } = await createUser(t.deps, { name: 'Bo' });
    const bo = await tab(user);
    const bystander = await tab((await createUser(t.deps)).user);
    expect((await admin.agent.patch(`/api/admin/users/${user.id}`, { role: 'admin' })).statusCode).toBe(200);
    const capacity = await admin.agent.patch(`/api/admin/users/${user.id}/capacity`, {
      max_storage_amount: 3,
    });
    expect(capacity.statusCode).toBe(200);
    await waitFor('both events', () => bo.events.length >= 2);
    expect(bo.events).toEqual([
      { event: 'user.updated', payload: { user_id: user.id } },
      { event: 'user.updated', payload: { user_id: user.id } },
    ]);
    expect(bystander.events).toEqual([]);
  });

  it('closes every socket of the person when the admin sets a password, and keeps the admin’s', async () => {
    const { user } = await createUser(t.deps, { name: 'Cy' });
    const phone = await tab(user);
    const laptop = await tab(user);
    const adminTab = await tab(admin.user);
    const set = await admin.agent.post(`/api/admin/users/${user.id}/password`, {
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(set.statusCode).toBe(204);
    expect(await phone.disconnected).toBe('io server disconnect');
    expect(await laptop.disconnected).toBe('io server disconnect');
    expect(adminTab.socket.connected).toBe(true);
  });

  it('closes the sockets of a deleted account', async () => {
    const { user } = await createUser(t.deps, { name: 'Di' });
    const open = await tab(user);
    expect((await admin.agent.delete(`/api/admin/users/${user.id}`, { name: 'Di' })).statusCode).toBe(204);
    expect(await open.disconnected).toBe('io server disconnect');
  });
});
