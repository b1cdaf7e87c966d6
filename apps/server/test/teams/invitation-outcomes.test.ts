import { NotificationList, TeamFolderDocument, UserResource, NotificationResource } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

type Person = { agent: TestAgent; user: UserRow };

describeEachDatabase('team invitations: how they ended, and the owner told', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  const people = {} as Record<'owner' | 'ana' | 'ben' | 'cy' | 'dee', Person>;
  let team: string;

  const notificationsOf = async (who: Person) =>
    NotificationList.parse((await who.agent.get('/api/notifications')).json()).data;
  /** The invitation notification the person got, as read back after a reload. */
  const invitationOf = async (who: Person) => {
    const notification = (await notificationsOf(who)).find((n) => n.attributes.action?.type === 'invitation');
    if (notification?.attributes.action?.type !== 'invitation') throw new Error('no invitation notification');
    return notification.attributes.action.params;
  };
  const answer = (who: Person, id: string, accept: boolean) =>
    accept ? who.agent.put(`/api/teams/invitations/${id}`) : who.agent.delete(`/api/teams/invitations/${id}`);
  const invite = async (...who: Person[]) => {
    clock.advanceSeconds(1);
    const res = await people.owner.agent.post(`/api/teams/folders/${team}`, {
      _method: 'patch',
      invitations: who.map(({ user }) => ({ email: user.email, permission: 'can_edit' })),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Everyone's notification count, to prove who was told what. */
  const counts = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(people).map(async ([name, who]) => [name, (await notificationsOf(who)).length]),
      ),
    );
  const ownerNotice = (notification: NotificationResource | undefined) => ({
    title: notification?.attributes.title,
    description: notification?.attributes.description,
    action: notification?.attributes.action,
  });

  beforeAll(async () => {
    t = await createTestApp({ database: kind, clock: clock.now });
    for (const name of ['owner', 'ana', 'ben', 'cy', 'dee'] as const) {
      const { user } = await createUser(t.deps, {
        name: `The ${name}`,
        email: `${name}-${kind}@example.test`,
      });
      people[name] = { user, agent: (await signedInAgent(t.app, user)).agent };
    }
    const created = await people.owner.agent.post('/api/teams/folders', { name: 'Studio', invitations: [] });
    expect(created.statusCode, created.body).toBe(201);
    team = TeamFolderDocument.parse(created.json()).data.id;
    await invite(people.ana, people.ben);
  });
  afterAll(() => t.close());

  it('keeps an accepted invitation accepted, with its folder, and tells the owner alone who joined', async () => {
    const sent = await invitationOf(people.ana);
    expect(sent).toMatchObject({ folder_id: team });
    expect(sent.outcome).toBeUndefined();
    const before = await counts();
    clock.advanceSeconds(1);
    expect((await answer(people.ana, sent.id, true)).statusCode).toBe(204);

    expect(await invitationOf(people.ana)).toEqual({ ...sent, outcome: 'accepted' });
    // The user resource carries the same notification, as the bell reads it after a reload.
    const user = UserResource.parse((await people.ana.agent.get('/api/user')).json()).data.relationships;
    const carried = [...user.unreadNotifications.data, ...user.readNotifications.data].map((n) =>
      NotificationResource.parse(n),
    );
    expect(carried.map((n) => n.attributes.action)).toContainEqual({
      type: 'invitation',
      params: { ...sent, outcome: 'accepted' },
    });

    const [told] = await notificationsOf(people.owner);
    expect(told?.attributes.category).toBe('team-invitation');
    expect(ownerNotice(told)).toEqual({
      title: 'The ana joined',
      description: `The ana (ana-${kind}@example.test) accepted your invitation to the team folder \u201cStudio\u201d.`,
      action: { type: 'route', params: { route: 'TeamFolders', id: team, button: 'Open folder' } },
    });
    expect(await counts()).toEqual({ ...before, owner: before.owner + 1 });
  });

  it('keeps a declined invitation declined, and tells the owner', async () => {
    const sent = await invitationOf(people.ben);
    const before = await counts();
    clock.advanceSeconds(1);
    expect((await answer(people.ben, sent.id, false)).statusCode).toBe(204);

    expect(await invitationOf(people.ben)).toEqual({ ...sent, outcome: 'rejected' });
    // Answering again is refused, and the notification still says how it ended.
    expect((await answer(people.ben, sent.id, true)).statusCode).toBe(410);
    expect(await invitationOf(people.ben)).toEqual({ ...sent, outcome: 'rejected' });
    expect(ownerNotice((await notificationsOf(people.owner))[0])).toEqual({
      title: 'The ben declined',
      description: `The ben (ben-${kind}@example.test) will not join the team folder \u201cStudio\u201d.`,
      action: { type: 'route', params: { route: 'TeamFolders', id: team, button: 'Open folder' } },
    });
    expect(await counts()).toEqual({ ...before, owner: before.owner + 1 });
  });

  it('tells the owner when a member leaves, and no one when someone who is no member tries', async () => {
    const before = await counts();
    clock.advanceSeconds(1);
    expect((await people.ana.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(204);
    expect(ownerNotice((await notificationsOf(people.owner))[0])).toEqual({
      title: 'The ana left',
      description: `The ana (ana-${kind}@example.test) left the team folder \u201cStudio\u201d and no longer sees its files.`,
      action: { type: 'route', params: { route: 'TeamFolders', id: team, button: 'Open folder' } },
    });
    expect((await people.ana.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(404);
    expect((await people.ben.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(404);
    expect(await counts()).toEqual({ ...before, owner: before.owner + 1 });
  });

  it('says an invitation left unanswered for 7 days expired, without anyone answering it', async () => {
    await invite(people.cy);
    const sent = await invitationOf(people.cy);
    expect(sent.outcome).toBeUndefined();
    clock.advanceHours(7 * 24);
    const before = await counts();
    expect(await invitationOf(people.cy)).toEqual({ ...sent, outcome: 'expired' });
    expect((await answer(people.cy, sent.id, true)).statusCode).toBe(410);
    expect(await invitationOf(people.cy)).toEqual({ ...sent, outcome: 'expired' });
    expect(await counts()).toEqual(before);
  });

  it('settles a notification sent before outcomes were kept once its invitation is answered again', async () => {
    await invite(people.dee);
    const { id } = await invitationOf(people.dee);
    // As stored before the notification carried the folder and the expiry.
    await t.deps.database.db
      .updateTable('notifications')
      .set({ action: JSON.stringify({ type: 'invitation', params: { id } }) })
      .where('user_id', '=', people.dee.user.id)
      .execute();
    clock.advanceHours(7 * 24);
    expect(await invitationOf(people.dee)).toEqual({ id });
    expect((await answer(people.dee, id, false)).statusCode).toBe(410);
    expect(await invitationOf(people.dee)).toEqual({ id, folder_id: team, outcome: 'expired' });
  });
});
