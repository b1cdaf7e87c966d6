import { TeamFolderDocument } from '@atelier/contracts';
import { expect, it } from 'vitest';
import { waitFor } from '../jobs/support/wait-for';
import { describeEachDatabase } from '../support/each-database';
import {
  acceptInvitation,
  changesOf,
  hearOwnChange,
  realtimePeople,
  WITHIN_MS,
  type Person,
} from './support/people';

describeEachDatabase('items.changed when a team folder’s membership changes', (kind) => {
  const suite = realtimePeople(kind);
  const { person } = suite;
  /** The `items.changed` each person should have heard so far. */
  const expected = new Map<Person, number>();

  /** Runs the write, then waits until each of `told` has heard of it. */
  async function heardBy(told: Person[], write: () => Promise<unknown>): Promise<void> {
    for (const who of told) expected.set(who, (expected.get(who) ?? 0) + 1);
    await write();
    await waitFor(
      'items.changed for each',
      () => told.every((who) => changesOf(who).length >= expected.get(who)!),
      WITHIN_MS,
    );
  }

  const sharedWithMe = async (who: Person) =>
    ((await who.agent.get('/api/teams/shared-with-me/all')).json().data as { id: string }[]).map((i) => i.id);

  it('follows a member joining, being removed, leaving and the team dissolving in everyone’s open listings, and tells no one else', async () => {
    const owner = await person('Olivia Owner');
    const alice = await person('Alice Member');
    const bob = await person('Bob Joiner');
    const carol = await person('Carol Member');
    const stranger = await person('Sam Stranger');
    let team = '';
    await heardBy([owner], async () => {
      const created = await owner.agent.post('/api/teams/folders', {
        name: 'Studio',
        invitations: [alice, bob, carol].map((m) => ({ email: m.user.email, permission: 'can_edit' })),
      });
      expect(created.statusCode, created.body).toBe(201);
      team = TeamFolderDocument.parse(created.json()).data.id;
    });
    await heardBy([owner, alice], () => acceptInvitation(alice));
    await heardBy([owner, alice, carol], () => acceptInvitation(carol));

    // Bob's shared folders gain the team; the owner's and the members' member lists change.
    await heardBy([owner, alice, carol, bob], () => acceptInvitation(bob));
    expect(await sharedWithMe(bob)).toEqual([team]);

    // Removed, Bob loses it; those who stay see the member go.
    await heardBy([owner, alice, carol, bob], async () => {
      const removed = await owner.agent.patch(`/api/teams/folders/${team}`, {
        remove_members: [bob.user.id],
      });
      expect(removed.statusCode, removed.body).toBe(200);
    });
    expect(await sharedWithMe(bob)).toEqual([]);

    await heardBy([owner, alice, carol], async () => {
      expect((await alice.agent.delete(`/api/teams/folders/${team}/leave`)).statusCode).toBe(204);
    });
    expect(await sharedWithMe(alice)).toEqual([]);

    await heardBy([owner, carol], async () => {
      expect((await owner.agent.delete(`/api/teams/folders/${team}`)).statusCode).toBe(204);
    });
    expect(await sharedWithMe(carol)).toEqual([]);

    // Everyone heard exactly what concerned them: those who had left nothing more of the team, the
    // stranger nothing.
    for (const who of [owner, alice, bob, carol, stranger]) {
      await hearOwnChange(who);
      expect(changesOf(who).length, who.user.name).toBe((expected.get(who) ?? 0) + 1);
    }
  });

  it('tells a team’s members when their folder goes with a folder above it, or for good', async () => {
    const owner = await person('Owen Owner');
    const member = await person('Mia Member');
    const team = async (name: string, parentId: string | null) => {
      const folder = (
        await owner.agent.post('/api/create-folder', { name, ...(parentId ? { parent_id: parentId } : {}) })
      ).json().data.id as string;
      await heardBy([owner], async () => {
        const converted = await owner.agent.post(`/api/teams/folders/${folder}/convert`, {
          invitations: [{ email: member.user.email, permission: 'can_view' }],
        });
        expect(converted.statusCode, converted.body).toBe(201);
      });
      await heardBy([owner, member], () => acceptInvitation(member));
      return folder;
    };
    const above = (await owner.agent.post('/api/create-folder', { name: 'Clients' })).json().data
      .id as string;
    await team('Inner studio', above);
    await heardBy([owner, member], async () => {
      const trashed = await owner.agent.post('/api/remove', { items: [{ id: above, type: 'folder' }] });
      expect(trashed.statusCode).toBe(204);
    });
    const gone = await team('Gone studio', null);
    await heardBy([owner, member], async () => {
      const deleted = await owner.agent.post('/api/remove', {
        items: [{ id: gone, type: 'folder', force_delete: true }],
      });
      expect(deleted.statusCode).toBe(204);
    });
    expect(await sharedWithMe(member)).toEqual([]);
  });
});
