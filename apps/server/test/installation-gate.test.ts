import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../src/db/schema';
import type { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createSession, createUser, signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';
import { uploaded } from './files/files-harness';
import { connectSocket, type ClientSocket } from './realtime/support/sockets';

/** File bytes, thumbnails and realtime follow the installation state like the API does. */
describeEachDatabase('installation gate beyond the API', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  let member: { agent: TestAgent; user: UserRow };
  let admin: { agent: TestAgent; user: UserRow };
  let fileId: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    member = await signedInAgent(t.app);
    admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    fileId = (await uploaded(member.agent, Buffer.from('member bytes'), { name: 'notes.txt' })).id;
  });
  afterAll(() => t.close());
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await t.deps.settings.set({ installed: true, maintenance: false });
  });

  async function socketOf(user: UserRow) {
    const socket = await connectSocket(baseUrl, { session: await createSession(t.deps, user) });
    sockets.push(socket);
    return socket;
  }

  it('serves the files while the instance is open', async () => {
    const file = await member.agent.get(`/file/${fileId}`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('member bytes');
    expect((await socketOf(member.user)).connected).toBe(true);
  });

  describe('in maintenance mode', () => {
    it('answers maintenance on /file and /thumbnail to everyone but admins', async () => {
      await t.deps.settings.set({ maintenance: true });
      for (const url of [`/file/${fileId}`, `/file/${fileId}?download=1`, `/thumbnail/sm/${fileId}`]) {
        const res = await member.agent.get(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code).toBe('maintenance');
      }
      // An admin passes the gate: their answer is the route's own (the member's file is not theirs).
      const byAdmin = await admin.agent.get(`/file/${fileId}`);
      expect(byAdmin.statusCode).not.toBe(503);
    });

    it('refuses new sockets of everyone but admins', async () => {
      await t.deps.settings.set({ maintenance: true });
      await expect(socketOf(member.user)).rejects.toThrow('maintenance');
      expect((await socketOf(admin.user)).connected).toBe(true);
    });

    it('closes the open sockets of everyone but admins when the sockets are checked again', async () => {
      const memberSocket = await socketOf(member.user);
      const adminSocket = await socketOf(admin.user);
      const disconnected = new Promise<string>((resolve) => memberSocket.once('disconnect', resolve));
      await t.deps.settings.set({ maintenance: true });
      await t.deps.realtime.revalidateSockets();
      expect(await disconnected).toBe('io server disconnect');
      expect(adminSocket.connected).toBe(true);
    });
  });

  describe('before the installation is finished', () => {
    it('serves neither files nor thumbnails nor sockets', async () => {
      await t.deps.settings.set({ installed: false });
      for (const url of [`/file/${fileId}`, `/thumbnail/sm/${fileId}`]) {
        const res = await member.agent.get(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code).toBe('not_installed');
      }
      await expect(socketOf(admin.user)).rejects.toThrow('not_installed');
    });
  });
});
