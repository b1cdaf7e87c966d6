import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Manager } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { REALTIME_PATH } from '@atelier/contracts';
import type { UserRow } from '../../src/db/schema';
import { hashToken } from '../../src/lib/tokens';
import { UserTokensRepository } from '../../src/modules/auth/user-tokens.repository';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { DEFAULT_PASSWORD, createSession, createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../jobs/support/wait-for';
import { connectSocket, recordEvents, type ClientSocket } from './support/sockets';

describeEachDatabase('realtime', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ database: kind });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await t.deps.settings.set({ broadcasting_driver: 'socket.io' });
  });

  async function signedInSocket(user?: UserRow) {
    const owner = user ?? (await createUser(t.deps)).user;
    const session = await createSession(t.deps, owner);
    const socket = await connectSocket(baseUrl, { session });
    sockets.push(socket);
    return { socket, user: owner, session, events: recordEvents(socket) };
  }

  it('refuses a socket without a session, or with a session that does not exist', async () => {
    await expect(connectSocket(baseUrl)).rejects.toThrow('unauthenticated');
    await expect(connectSocket(baseUrl, { session: 'forged-session-token' })).rejects.toThrow(
      'unauthenticated',
    );
  });

  it('closes the connection of a refused handshake instead of keeping it open', async () => {
    // A client of its own making, which neither closes after the refusal nor goes away: the server must.
    const manager = new Manager(baseUrl, {
      path: REALTIME_PATH,
      transports: ['websocket'],
      reconnection: false,
      autoConnect: false,
    });
    await new Promise<void>((resolve, reject) =>
      manager.open((error) => (error ? reject(error) : resolve())),
    );
    const messages: string[] = [];
    manager.engine.on('message', (data) => messages.push(String(data)));
    const closed = new Promise<void>((resolve) => manager.engine.once('close', () => resolve()));
    try {
      // Socket.IO's CONNECT packet (0) to the main namespace, without a session cookie; its answer is
      // CONNECT_ERROR (4).
      manager.engine.send('0');
      await waitFor('the refusal', () => messages.some((m) => m.startsWith('4')), 5_000);
      expect(messages.find((m) => m.startsWith('4'))).toContain('unauthenticated');
      await expect(
        Promise.race([closed.then(() => 'closed'), sleep(5_000).then(() => 'still open')]),
      ).resolves.toBe('closed');
    } finally {
      manager.engine.close();
    }
  });

  it('refuses a handshake from another site', async () => {
    const session = await createSession(t.deps, (await createUser(t.deps)).user);
    await expect(
      connectSocket(baseUrl, { session, headers: { origin: 'https://evil.example' } }),
    ).rejects.toThrow();
    const sameSite = await connectSocket(baseUrl, { session, headers: { origin: 'http://atelier.test' } });
    sockets.push(sameSite);
    expect(sameSite.connected).toBe(true);
  });

  it("delivers a user's events to every tab of that user and to nobody else", async () => {
    const alice = await signedInSocket();
    const aliceSecondTab = await signedInSocket(alice.user);
    const bob = await signedInSocket();
    // Socket.IO clients cannot join rooms; a client asking anyway must get nothing.
    (bob.socket as unknown as { emit(event: string, room: string): void }).emit(
      'join',
      `user.${alice.user.id}`,
    );

    const row = await t.deps.notifications.notify(alice.user.id, {
      category: 'gift',
      title: 'For Alice',
      description: 'private',
    });
    await t.deps.notifications.notify(bob.user.id, {
      category: 'gift',
      title: 'For Bob',
      description: 'marker',
    });

    const expected = {
      event: 'notification',
      payload: { id: row.id, category: 'gift', title: 'For Alice', description: 'private', action: null },
    };
    await waitFor(
      'both of Alice’s tabs',
      () => alice.events.length === 1 && aliceSecondTab.events.length === 1,
    );
    expect(alice.events).toEqual([expected]);
    expect(aliceSecondTab.events).toEqual([expected]);
    // Bob's own event arrives after Alice's was emitted, so hers would have arrived first.
    await waitFor('Bob’s event', () => bob.events.length > 0);
    expect(bob.events.map((e) => (e.payload as { title: string }).title)).toEqual(['For Bob']);
  });

  it('sends the admin websocket test event to the admin who asked', async () => {
    const admin = (await createUser(t.deps, { role: 'admin' })).user;
    const tab = await signedInSocket(admin);
    const { agent } = await signedInAgent(t.app, admin);
    expect((await agent.post('/api/admin/test-websockets')).statusCode).toBe(204);
    await waitFor('the test event', () => tab.events.length > 0);
    expect(tab.events).toEqual([
      { event: 'TestWebsocketConnection', payload: { message: 'websocket_test' } },
    ]);
  });

  it('closes a socket once its session has ended', async () => {
    const alice = await signedInSocket();
    const disconnected = new Promise<string>((resolve) => alice.socket.once('disconnect', resolve));
    await t.deps.sessions.destroy(alice.session);
    await t.deps.realtime.revalidateSockets();
    expect(await disconnected).toBe('io server disconnect');
  });

  it('closes the sockets of a session as soon as it signs out, and only those', async () => {
    const phone = await signedInSocket();
    const laptop = await signedInSocket(phone.user);
    const agent = new TestAgent(t.app);
    agent.setCookie(SESSION_COOKIE, phone.session);
    const disconnected = new Promise<string>((resolve) => phone.socket.once('disconnect', resolve));

    expect((await agent.post('/logout')).statusCode).toBe(204);
    expect(await disconnected).toBe('io server disconnect');

    await t.deps.notifications.notify(phone.user.id, {
      category: 'gift',
      title: 'still here',
      description: '',
    });
    await waitFor('the other session’s event', () => laptop.events.length > 0);
    expect(laptop.socket.connected).toBe(true);
  });

  it('closes the sockets of every other session when the password changes, and keeps the changer’s', async () => {
    const laptop = await signedInSocket();
    const phone = await signedInSocket(laptop.user);
    const agent = new TestAgent(t.app);
    agent.setCookie(SESSION_COOKIE, laptop.session);
    await agent.get('/api/ping');
    const disconnected = new Promise<string>((resolve) => phone.socket.once('disconnect', resolve));

    const changed = await agent.post('/api/user/password', {
      current_password: DEFAULT_PASSWORD,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(changed.statusCode).toBe(204);
    expect(await disconnected).toBe('io server disconnect');
    await t.deps.notifications.notify(laptop.user.id, {
      category: 'gift',
      title: 'still here',
      description: '',
    });
    await waitFor('the changer’s event', () => laptop.events.length > 0);
    expect(laptop.socket.connected).toBe(true);
  });

  it('closes every socket of the user as soon as a password reset ends their sessions', async () => {
    const laptop = await signedInSocket();
    const phone = await signedInSocket(laptop.user);
    const closed = (socket: ClientSocket) =>
      new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const disconnected = [closed(laptop.socket), closed(phone.socket)];
    const token = randomBytes(16).toString('hex');
    await new UserTokensRepository(t.deps.database, 'password_resets', t.deps.clock).insert(
      laptop.user.id,
      hashToken(token),
      new Date(t.deps.clock().getTime() + 3_600_000),
    );

    const reset = await new TestAgent(t.app).post('/api/password/reset', {
      token,
      email: laptop.user.email,
      password: 'a brand new password',
      password_confirmation: 'a brand new password',
    });
    expect(reset.statusCode).toBe(200);
    // At once, not at the next check of open sockets (a minute away): no socket is checked here.
    const revalidate = vi.spyOn(t.deps.realtime, 'revalidateSockets');
    try {
      await expect(
        Promise.race([Promise.all(disconnected), sleep(5_000).then(() => 'still connected')]),
      ).resolves.toEqual(['io server disconnect', 'io server disconnect']);
      expect(revalidate).not.toHaveBeenCalled();
    } finally {
      revalidate.mockRestore();
    }
  });

  it('turns realtime off cleanly with the null broadcasting driver', async () => {
    const open = await signedInSocket();
    // Open sockets are let go as soon as the setting changes.
    const disconnected = new Promise((resolve) => open.socket.once('disconnect', resolve));
    await t.deps.settings.set({ broadcasting_driver: 'null' });

    const session = await createSession(t.deps, open.user);
    await expect(connectSocket(baseUrl, { session })).rejects.toThrow('realtime_disabled');
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json().broadcasting.driver).toBe('null');

    // Notifications are still stored; nothing is pushed.
    await t.deps.notifications.notify(open.user.id, {
      category: 'gift',
      title: 'stored only',
      description: '',
    });
    await disconnected;
    expect(open.events).toEqual([]);
    const { agent } = await signedInAgent(t.app, open.user);
    expect((await agent.get('/api/notifications')).json().data).toHaveLength(1);
  });
});
