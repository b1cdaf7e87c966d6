import { NotificationPayload, TeamFolderDocument } from '@atelier/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../support/each-database';
import { eventAfter } from './support/sockets';
import { realtimePeople, WITHIN_MS, type Person } from './support/people';

describeEachDatabase('the open tabs of a team invitation’s invitee', (kind) => {
  const suite = realtimePeople(kind);
  const { person } = suite;

  const trash = (owner: Person, id: string) =>
    owner.agent.post('/api/remove', { items: [{ id, type: 'folder', force_delete: false }] });
  const restore = (owner: Person, id: string) =>
    owner.agent.post('/api/trash/restore', { items: [{ id, type: 'folder' }] });
  const heard = (who: Person, event: string) => who.events.filter((e) => e.event === event);

  it('are told when the offer is taken back and when it is made again', async () => {
    const owner = await person('Olga Owner');
    const invitee = await person('Ivy Invitee');
    const stranger = await person('Sam Stranger');

    let studio = '';
    const invited = NotificationPayload.parse(
      await eventAfter(
        invitee.socket,
        'notification',
        async () => {
          const created = await owner.agent.post('/api/teams/folders', {
            name: 'Studio',
            invitations: [{ email: invitee.user.email, permission: 'can_edit' }],
          });
          expect(created.statusCode, created.body).toBe(201);
          studio = TeamFolderDocument.parse(created.json()).data.id;
        },
        WITHIN_MS,
      ),
    );
    expect(invited.action).toMatchObject({ type: 'invitation' });
    const invitationId = invited.action?.type === 'invitation' ? invited.action.params.id : '';

    // The folder goes to the trash: the offer it made leaves the invitee's open centre.
    await expect(
      eventAfter(
        invitee.socket,
        'notifications.changed',
        async () => expect((await trash(owner, studio)).statusCode).toBe(204),
        WITHIN_MS,
      ),
    ).resolves.toEqual({ user_id: invitee.user.id });

    // Restored, it is offered again, as a notification of its own.
    const offeredAgain = NotificationPayload.parse(
      await eventAfter(
        invitee.socket,
        'notification',
        async () => expect((await restore(owner, studio)).statusCode).toBe(204),
        WITHIN_MS,
      ),
    );
    expect(offeredAgain.action).toMatchObject({ type: 'invitation', params: { id: invitationId } });

    // The team dissolved: taken back for good.
    await expect(
      eventAfter(
        invitee.socket,
        'notifications.changed',
        async () => expect((await owner.agent.delete(`/api/teams/folders/${studio}`)).statusCode).toBe(204),
        WITHIN_MS,
      ),
    ).resolves.toEqual({ user_id: invitee.user.id });

    // Nobody else's centre changed.
    expect(heard(owner, 'notifications.changed')).toEqual([]);
    expect(heard(stranger, 'notifications.changed')).toEqual([]);
    expect(heard(stranger, 'notification')).toEqual([]);
  });
});
