import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../src/db/schema';
import { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createSession, createUser, signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';
import { uploaded } from './files/files-harness';
import { connectSocket, type ClientSocket } from './realtime/support/sockets';
import { basic } from './webdav/webdav-harness';

/** Other spellings of a path that Fastify routes the same way: a letter of the first segment percent-encoded. */
function respellings(path: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]*)(.*)$/.exec(path) ?? [];
  return [...first].map((letter, i) => {
    const escape = `%${letter.charCodeAt(0).toString(16)}`;
    return `/${first.slice(0, i)}${i % 2 ? escape.toUpperCase() : escape}${first.slice(i + 1)}${rest}`;
  });
}

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

  async function davAccountOf(user: UserRow) {
    const { password } = await t.deps.appPasswords.create(user.id, { name: 'WebDAV' });
    return { authorization: basic(user.email, password), depth: '1' };
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

    it('decides on the route that matched, however its path is spelled', async () => {
      await t.deps.settings.set({ maintenance: true });
      for (const url of [
        ...respellings('/api/notifications'),
        ...respellings(`/file/${fileId}`),
        ...respellings(`/thumbnail/sm/${fileId}`),
        '/api/n%6Ftifications',
      ]) {
        const res = await member.agent.get(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code, url).toBe('maintenance');
      }
      // What stays open stays open under any spelling: an admin can still sign in.
      const config = await member.agent.get('/%61pi/config');
      expect(config.statusCode).toBe(200);
      expect(config.json().maintenance).toBe(true);
    });

    it('leaves the second step of a sign-in open, so an admin with two-factor can sign in', async () => {
      await t.deps.settings.set({ maintenance: true });
      const res = await new TestAgent(t.app).post('/api/two-factor-challenge', { code: '123456' });
      expect(res.statusCode).not.toBe(503);
    });

    it('closes WebDAV to everyone, admins included', async () => {
      const headers = await davAccountOf(member.user);
      const adminHeaders = await davAccountOf(admin.user);
      await t.deps.settings.set({ maintenance: true });
      for (const url of ['/dav/', '/%64av/', `/dav/notes.txt`]) {
        for (const [who, h] of [
          ['member', headers],
          ['admin', adminHeaders],
        ] as const) {
          const res = await t.app.inject({ method: 'PROPFIND', url, headers: h });
          // WebDAV answers errors in its own way: the status, no JSON body.
          expect(res.statusCode, `${who} ${url}`).toBe(503);
        }
      }
      await t.deps.settings.set({ maintenance: false });
      const open = await t.app.inject({ method: 'PROPFIND', url: '/dav/', headers });
      expect(open.statusCode).toBe(207);
    });

    it('refuses new sockets of everyone but admins', async () => {
      await t.deps.settings.set({ maintenance: true });
      await expect(socketOf(member.user)).rejects.toThrow('maintenance');
      expect((await socketOf(admin.user)).connected).toBe(true);
    });

    it('closes the open sockets of everyone but admins as soon as it is switched on', async () => {
      const memberSocket = await socketOf(member.user);
      const adminSocket = await socketOf(admin.user);
      const disconnected = new Promise<string>((resolve) => memberSocket.once('disconnect', resolve));
      await t.deps.settings.set({ maintenance: true });
      // Well before the periodic check (every minute).
      const reason = await Promise.race([disconnected, sleep(5_000).then(() => 'still open')]);
      expect(reason).toBe('io server disconnect');
      expect(adminSocket.connected).toBe(true);
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

    it('decides on the route that matched: a respelled sign-up makes no account', async () => {
      await t.deps.settings.set({ installed: false });
      for (const [i, url] of [...respellings('/api/register'), '/api/r%65gister'].entries()) {
        const email = `early-${i}@example.test`;
        const res = await new TestAgent(t.app, `198.51.100.${i + 1}`).post(url, {
          name: 'Early Bird',
          email,
          password: 'before the wizard',
          password_confirmation: 'before the wizard',
        });
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code, url).toBe('not_installed');
        expect(await t.deps.users.findByEmail(email), url).toBeUndefined();
      }
      for (const url of respellings(`/file/${fileId}`)) {
        expect((await member.agent.get(url)).statusCode, url).toBe(503);
      }
    });

    it('closes WebDAV', async () => {
      const headers = await davAccountOf(member.user);
      await t.deps.settings.set({ installed: false });
      for (const url of ['/dav/', '/%64av/']) {
        const res = await t.app.inject({ method: 'PROPFIND', url, headers });
        expect(res.statusCode, url).toBe(503);
      }
    });
  });
});
