import { NotificationList, type NotificationResource } from '@atelier/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('notification centre', (kind) => {
  let t: TestApp;
  let alice: { agent: TestAgent; user: UserRow };
  let bob: { agent: TestAgent; user: UserRow };
  /** When set, the app's clock stands at this time; otherwise it is the system's. */
  let now: Date | undefined;

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: () => now ?? new Date() });
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    alice = await signedInAgent(t.app);
    bob = await signedInAgent(t.app);
  });

  async function listOf(agent: TestAgent) {
    const res = await agent.get('/api/notifications');
    expect(res.statusCode).toBe(200);
    return NotificationList.parse(res.json());
  }

  it('asks for a sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(res.statusCode).toBe(401);
  });

  it("lists the user's own notifications, newest first, with the unread count", async () => {
    await t.deps.notifications.notify(alice.user.id, {
      category: 'file-request',
      title: 'Files arrived',
      description: '3 files were uploaded to Brief',
      action: { type: 'route', params: { route: 'Files', id: 'f-1' } },
    });
    await t.deps.notifications.notify(alice.user.id, {
      category: 'gift',
      title: 'A gift',
      description: 'You received 10 GB',
      action: { type: 'url', params: { url: 'https://example.test/offer', target: 'blank', button: 'Open' } },
    });
    await t.deps.notifications.notify(bob.user.id, {
      category: 'billing-alert',
      title: 'For Bob',
      description: 'only his',
    });

    const list = await listOf(alice.agent);
    expect(list.data.map((n) => n.attributes.title)).toEqual(['A gift', 'Files arrived']);
    expect(list.data[0]!.attributes).toMatchObject({
      category: 'gift',
      read_at: null,
      action: { type: 'url', params: { url: 'https://example.test/offer', target: 'blank', button: 'Open' } },
    });
    expect(list.data[1]!.attributes.action).toEqual({ type: 'route', params: { route: 'Files', id: 'f-1' } });
    expect(list.meta).toMatchObject({ unread: 2, paginate: { current_page: 1, total: 2, last_page: 1 } });

    expect((await listOf(bob.agent)).data.map((n) => n.attributes.title)).toEqual(['For Bob']);
  });

  it('pages through many notifications', async () => {
    for (let i = 1; i <= 5; i += 1) {
      await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: `n${i}`, description: '' });
    }
    const res = await alice.agent.get('/api/notifications?page=2&per_page=2');
    const page = NotificationList.parse(res.json());
    expect(page.data.map((n) => n.attributes.title)).toEqual(['n3', 'n2']);
    expect(page.meta.paginate).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
  });

  it('marks every notification of the user read, and only theirs', async () => {
    await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'one', description: '' });
    await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'two', description: '' });
    await t.deps.notifications.notify(bob.user.id, { category: 'gift', title: 'bob', description: '' });

    const res = await alice.agent.post('/api/notifications/read');
    expect(res.statusCode).toBe(204);

    const list = await listOf(alice.agent);
    expect(list.meta.unread).toBe(0);
    expect(list.data.every((n) => n.attributes.read_at !== null)).toBe(true);
    expect((await listOf(bob.agent)).meta.unread).toBe(1);
  });

  it('stamps a notification and its reading with the app’s clock', async () => {
    // An hour ahead of the system's time: within the sessions' life, which the clock decides too.
    const later = Date.now() + 3_600_000;
    now = new Date(later);
    try {
      await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'later', description: '' });
      const made = (await listOf(alice.agent)).data[0]!;
      expect(made.attributes.created_at).toBe(now.toISOString());
      now = new Date(later + 60_000);
      expect((await alice.agent.post('/api/notifications/read')).statusCode).toBe(204);
      expect((await listOf(alice.agent)).data[0]!.attributes.read_at).toBe(now.toISOString());
    } finally {
      now = undefined;
    }
  });

  it('deletes all of the user’s notifications, with DELETE or the method marker', async () => {
    await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'one', description: '' });
    await t.deps.notifications.notify(bob.user.id, { category: 'gift', title: 'bob', description: '' });

    expect((await alice.agent.delete('/api/notifications')).statusCode).toBe(204);
    expect((await listOf(alice.agent)).data).toEqual([]);
    expect((await listOf(bob.agent)).data).toHaveLength(1);

    expect((await bob.agent.post('/api/notifications', { _method: 'delete' })).statusCode).toBe(204);
    expect((await listOf(bob.agent)).data).toEqual([]);
  });

  it('carries the unread and the newest read notifications in the user resource, for the bell', async () => {
    await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'seen', description: '' });
    await alice.agent.post('/api/notifications/read');
    await t.deps.notifications.notify(alice.user.id, {
      category: 'payment-alert',
      title: 'new',
      description: '',
    });
    await t.deps.notifications.notify(bob.user.id, { category: 'gift', title: 'not hers', description: '' });

    const { relationships } = (await alice.agent.get('/api/user')).json().data;
    expect(
      relationships.unreadNotifications.data.map((n: NotificationResource) => n.attributes.title),
    ).toEqual(['new']);
    expect(relationships.readNotifications.data.map((n: NotificationResource) => n.attributes.title)).toEqual(
      ['seen'],
    );
  });

  it('refuses a state change without the XSRF header and changes nothing', async () => {
    await t.deps.notifications.notify(alice.user.id, { category: 'gift', title: 'kept', description: '' });
    const res = await alice.agent.delete('/api/notifications', undefined, { xsrf: false });
    expect(res.statusCode).toBe(419);
    expect(res.json()).toMatchObject({ message: 'CSRF token mismatch.' });
    expect((await listOf(alice.agent)).data).toHaveLength(1);
  });

  it('refuses to store a notification outside the categories of the description', async () => {
    await expect(
      t.deps.notifications.notify(alice.user.id, {
        category: 'lottery' as 'gift',
        title: 'x',
        description: '',
      }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      t.deps.notifications.notify(alice.user.id, {
        category: 'gift',
        title: 'x',
        description: '',
        action: { type: 'url', params: { url: 'not a url' } },
      }),
    ).rejects.toBeInstanceOf(ZodError);
    expect((await listOf(alice.agent)).data).toEqual([]);
  });

  it('stores URL actions with http or https addresses only', async () => {
    for (const url of ['javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'data:text/html,hi']) {
      await expect(
        t.deps.notifications.notify(alice.user.id, {
          category: 'gift',
          title: 'x',
          description: '',
          action: { type: 'url', params: { url } },
        }),
        url,
      ).rejects.toBeInstanceOf(ZodError);
    }
    await t.deps.notifications.notify(alice.user.id, {
      category: 'gift',
      title: 'plain web link',
      description: '',
      action: { type: 'url', params: { url: 'http://example.test/offer' } },
    });
    expect((await listOf(alice.agent)).data.map((n) => n.attributes.title)).toEqual(['plain web link']);
  });

  it('presents a stored URL action that is not http(s) as no action at all', async () => {
    const row = await t.deps.notifications.notify(alice.user.id, {
      category: 'gift',
      title: 'stored earlier',
      description: '',
    });
    await t.deps.database.db
      .updateTable('notifications')
      .set({ action: JSON.stringify({ type: 'url', params: { url: 'javascript:alert(1)' } }) })
      .where('id', '=', row.id)
      .execute();

    const res = await alice.agent.get('/api/notifications');
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].attributes).toMatchObject({ title: 'stored earlier', action: null });
    const bell = (await alice.agent.get('/api/user')).json().data.relationships.unreadNotifications.data;
    expect(bell[0].attributes.action).toBeNull();
  });

  it('lets only an admin run the websocket test', async () => {
    expect((await alice.agent.post('/api/admin/test-websockets')).statusCode).toBe(403);
    const admin = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
    expect((await admin.agent.post('/api/admin/test-websockets')).statusCode).toBe(204);
  });
});
