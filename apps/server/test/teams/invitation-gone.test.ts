import { randomUUID } from 'node:crypto';
import { NotificationList, TeamFolderDocument, UserResource } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/lib/tokens';
import { teamInvitationMailJob } from '../../src/modules/teams/teams.jobs';
import type { UserRow } from '../../src/db/schema';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createUser, signedInAgent } from '../support/factories';
import { SmtpPeer } from '../support/smtp-peer';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../sharing/sharing-harness';

type Person = { agent: TestAgent; user: UserRow };

describeEachDatabase('team invitations that are gone: their notifications stop offering them', (kind) => {
  const clock = new TestClock();
  let t: TestApp;
  let admin: Person;
  let ana: Person;
  let ben: Person;
  let teams = 0;
  let smtp: SmtpPeer;

  const person = async (name: string, role: 'user' | 'admin' = 'user'): Promise<Person> => {
    const { user } = await createUser(t.deps, { name, role, email: `${name}-${kind}@example.test` });
    return { user, agent: (await signedInAgent(t.app, user)).agent };
  };
  /** The invitations the person's notification centre shows after a reload: id and outcome (none: the buttons). */
  const offers = async (who: Person) => {
    const list = NotificationList.parse((await who.agent.get('/api/notifications')).json());
    return list.data.flatMap(({ attributes: { action } }) =>
      action?.type === 'invitation' ? [{ id: action.params.id, outcome: action.params.outcome }] : [],
    );
  };
  /** What the bell shows: the unread count and the user resource's invitations. */
  const bell = async (who: Person) => {
    const list = NotificationList.parse((await who.agent.get('/api/notifications')).json());
    const { relationships } = UserResource.parse((await who.agent.get('/api/user')).json()).data;
    const carried = [...relationships.unreadNotifications.data, ...relationships.readNotifications.data];
    return { unread: list.meta.unread, total: list.meta.paginate.total, carried: carried.length };
  };
  const folder = async (owner: Person, name: string, parent_id?: string) => {
    const made = await owner.agent.post('/api/create-folder', { name, ...(parent_id ? { parent_id } : {}) });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().data.id as string;
  };
  /** A team folder of the owner's (a new one, or `folderId` converted) with invitations to these people. */
  const team = async (owner: Person, invitees: Person[], folderId?: string) => {
    clock.advanceSeconds(1);
    const invitations = invitees.map(({ user }) => ({ email: user.email, permission: 'can_edit' }));
    const made = folderId
      ? await owner.agent.post(`/api/teams/folders/${folderId}/convert`, { invitations })
      : await owner.agent.post('/api/teams/folders', { name: `Studio ${++teams}`, invitations });
    expect(made.statusCode, made.body).toBe(201);
    return TeamFolderDocument.parse(made.json()).data.id;
  };
  const trash = (owner: Person, id: string) =>
    owner.agent.post('/api/remove', { items: [{ id, type: 'folder', force_delete: false }] });
  const restore = (owner: Person, id: string) =>
    owner.agent.post('/api/trash/restore', { items: [{ id, type: 'folder' }] });
  /** The id of the invitation to this team folder that the person's notification offers. */
  const offered = async (who: Person, folderId: string) => {
    const list = NotificationList.parse((await who.agent.get('/api/notifications')).json());
    const action = list.data
      .map((n) => n.attributes.action)
      .find((a) => a?.type === 'invitation' && a.params.folder_id === folderId);
    if (action?.type !== 'invitation') throw new Error('no invitation offered');
    return action.params.id;
  };

  beforeAll(async () => {
    smtp = await new SmtpPeer().start();
    t = await createTestApp({ database: kind, clock: clock.now, env: { SMTP_URL: smtp.url } });
    admin = await person('admin', 'admin');
    ana = await person('ana');
    ben = await person('ben');
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('takes back the offers of a dissolved team, keeps those already answered and those of other teams', async () => {
    const owner = await person('dora');
    const studio = await team(owner, [ana, ben]);
    const other = await team(owner, [ana]);
    const [inStudio, inOther, bens] = [
      await offered(ana, studio),
      await offered(ana, other),
      await offered(ben, studio),
    ];
    expect((await ben.agent.put(`/api/teams/invitations/${bens}`)).statusCode).toBe(204);
    const [anaBefore, benBefore] = [await bell(ana), await bell(ben)];

    expect((await owner.agent.delete(`/api/teams/folders/${studio}`)).statusCode).toBe(204);

    expect(await offers(ana)).not.toContainEqual({ id: inStudio, outcome: undefined });
    expect(await offers(ana)).toContainEqual({ id: inOther, outcome: undefined });
    expect(await bell(ana)).toEqual({
      unread: anaBefore.unread - 1,
      total: anaBefore.total - 1,
      carried: anaBefore.carried - 1,
    });
    // Ben joined before the team went: his notification still says so.
    expect(await offers(ben)).toContainEqual({ id: bens, outcome: 'accepted' });
    expect(await bell(ben)).toEqual(benBefore);
    expect((await ana.agent.put(`/api/teams/invitations/${inStudio}`)).statusCode).toBe(404);
  });

  it('takes back the offers of a team folder deleted for good with a folder that holds it', async () => {
    const owner = await person('edna');
    const clients = await folder(owner, 'Clients');
    const acme = await team(owner, [ana], await folder(owner, 'Acme', clients));
    const id = await offered(ana, acme);

    const removed = await owner.agent.post('/api/remove', {
      items: [{ id: clients, type: 'folder', force_delete: true }],
    });
    expect(removed.statusCode).toBe(204);

    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
    expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(404);
  });

  it('hides the offers of a team folder in the trash, refuses its invitations there, and offers them again once it is restored', async () => {
    const owner = await person('fay');
    const studio = await team(owner, [ana, ben]);
    const [anas, bens] = [await offered(ana, studio), await offered(ben, studio)];
    const anaBefore = await bell(ana);

    expect((await trash(owner, studio)).statusCode).toBe(204);

    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(anas);
    expect(await bell(ana)).toEqual({
      unread: anaBefore.unread - 1,
      total: anaBefore.total - 1,
      carried: anaBefore.carried - 1,
    });
    // As for a folder that is not there: neither the page nor an answer finds the invitation.
    expect((await ana.agent.get(`/api/teams/invitations/${anas}`)).statusCode).toBe(404);
    expect((await ana.agent.put(`/api/teams/invitations/${anas}`)).statusCode).toBe(404);
    expect((await ben.agent.delete(`/api/teams/invitations/${bens}`)).statusCode).toBe(404);

    expect((await restore(owner, studio)).statusCode).toBe(204);

    expect(await offers(ana)).toContainEqual({ id: anas, outcome: undefined });
    expect((await offers(ana)).filter((offer) => offer.id === anas)).toHaveLength(1);
    expect(await offers(ben)).toContainEqual({ id: bens, outcome: undefined });
    expect((await ana.agent.put(`/api/teams/invitations/${anas}`)).statusCode).toBe(204);
    expect(await offers(ana)).toContainEqual({ id: anas, outcome: 'accepted' });
  });

  it('refuses an acceptance whose folder went to the trash while it was under way', async () => {
    const owner = await person('faye');
    const studio = await team(owner, [ana]);
    const id = await offered(ana, studio);
    // The trash commits after the answer read the invitation and before its unit of work.
    const teams = t.deps.teams as unknown as { ownerNotice: (...args: unknown[]) => Promise<unknown> };
    const ownerNotice = teams.ownerNotice.bind(teams);
    const during = vi.spyOn(teams, 'ownerNotice').mockImplementationOnce(async (...args) => {
      expect((await trash(owner, studio)).statusCode).toBe(204);
      return ownerNotice(...args);
    });
    try {
      expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(404);
    } finally {
      during.mockRestore();
    }
    const members = await owner.agent.get(`/api/teams/folders/${studio}`);
    expect(JSON.stringify(members.json())).not.toContain(ana.user.id);

    expect((await restore(owner, studio)).statusCode).toBe(204);
    expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(204);
  });

  it('e-mails an invitation once its folder is restored when its e-mail came due while the folder was in the trash', async () => {
    const owner = await person('fenna');
    clock.advanceSeconds(1);
    const made = await owner.agent.post('/api/teams/folders', {
      name: `Studio ${++teams}`,
      invitations: [{ email: `newcomer-${kind}@example.test`, permission: 'can_view' }],
    });
    const studio = TeamFolderDocument.parse(made.json()).data.id;
    const tokenHash = async () =>
      (
        await t.deps.database.db
          .selectFrom('team_invitations')
          .select('token_hash')
          .where('folder_id', '=', studio)
          .executeTakeFirstOrThrow()
      ).token_hash;
    expect((await trash(owner, studio)).statusCode).toBe(204);
    const mails = () => t.deps.jobs.startWorker({ definitions: [teamInvitationMailJob], services: t.deps });
    // The e-mail's job runs while the folder is in the trash and sends nothing: no link is made.
    const during = mails();
    await vi.waitFor(
      async () => expect((await t.deps.jobs.counts([teamInvitationMailJob.id])).waiting).toBe(0),
      { timeout: 15_000, interval: 50 },
    );
    await during.close();
    expect(await tokenHash()).toBeNull();

    expect((await restore(owner, studio)).statusCode).toBe(204);
    const after = mails();
    try {
      await vi.waitFor(async () => expect(await tokenHash()).not.toBeNull(), {
        timeout: 15_000,
        interval: 50,
      });
    } finally {
      await after.close();
    }
  });

  it('e-mails an invitation once when its folder goes to the trash and comes back while its e-mail waits', async () => {
    const owner = await person('fiona');
    const email = `twice-${kind}@example.test`;
    clock.advanceSeconds(1);
    const made = await owner.agent.post('/api/teams/folders', {
      name: `Studio ${++teams}`,
      invitations: [{ email, permission: 'can_view' }],
    });
    const studio = TeamFolderDocument.parse(made.json()).data.id;
    // No worker runs yet: the e-mail's job still waits when the folder leaves and comes back.
    expect((await trash(owner, studio)).statusCode).toBe(204);
    expect((await restore(owner, studio)).statusCode).toBe(204);

    const worker = t.deps.jobs.startWorker({ definitions: [teamInvitationMailJob], services: t.deps });
    try {
      await vi.waitFor(
        async () => expect((await t.deps.jobs.counts([teamInvitationMailJob.id])).waiting).toBe(0),
        { timeout: 15_000, interval: 50 },
      );
    } finally {
      await worker.close();
    }
    const sent = () => smtp.messages.filter((message) => message.to.includes(email));
    expect(sent()).toHaveLength(1);
    const stored = () =>
      t.deps.database.db
        .selectFrom('team_invitations')
        .select(['id', 'token_hash', 'mailed_by_job'])
        .where('folder_id', '=', studio)
        .executeTakeFirstOrThrow();
    /** The one link sent last is the one that works. */
    const lastLinkWorks = async () => {
      const link = /https?:\/\/\S+team-folder-invitation\S+/.exec(sent().at(-1)!.text)![0];
      expect((await stored()).token_hash).toBe(hashToken(new URL(link).searchParams.get('token')!));
    };
    await lastLinkWorks();

    // A retry of the job that sent it (its mail server failed after the link was made) sends it again.
    const { id, mailed_by_job } = await stored();
    await t.deps.teams.mailInvitation(id, mailed_by_job!);
    expect(sent()).toHaveLength(2);
    await lastLinkWorks();
    await t.deps.teams.mailInvitation(id, randomUUID());
    expect(sent()).toHaveLength(2);
    await lastLinkWorks();
  });

  it('hides and offers again the invitations of a team folder that goes to the trash with a folder above it', async () => {
    const owner = await person('fern');
    const clients = await folder(owner, 'Clients');
    const acme = await team(owner, [ana], await folder(owner, 'Acme', clients));
    const id = await offered(ana, acme);

    expect((await trash(owner, clients)).statusCode).toBe(204);
    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
    expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(404);

    expect((await restore(owner, clients)).statusCode).toBe(204);
    expect(await offers(ana)).toContainEqual({ id, outcome: undefined });
  });

  it('does not offer again an invitation that expired while its folder was in the trash', async () => {
    const owner = await person('flo');
    const studio = await team(owner, [ana]);
    const id = await offered(ana, studio);
    expect((await trash(owner, studio)).statusCode).toBe(204);

    clock.advanceSeconds(8 * 86_400);
    expect((await restore(owner, studio)).statusCode).toBe(204);

    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
    expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(410);
  });

  it('keeps the offers of a team folder in the trash away once the trash is emptied', async () => {
    const owner = await person('fay-2');
    const studio = await team(owner, [ana]);
    const id = await offered(ana, studio);
    expect((await trash(owner, studio)).statusCode).toBe(204);

    expect((await owner.agent.delete('/api/trash/dump')).statusCode).toBe(204);

    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
    expect((await ana.agent.put(`/api/teams/invitations/${id}`)).statusCode).toBe(404);
    expect((await restore(owner, studio)).statusCode).toBe(404);
    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
  });

  it('takes back the offers of an owner whose account is deleted', async () => {
    const owner = await person('gus');
    const id = await offered(ana, await team(owner, [ana]));

    const deleted = await admin.agent.delete(`/api/admin/users/${owner.user.id}`, { name: 'gus' });
    expect(deleted.statusCode, deleted.body).toBe(204);

    expect((await offers(ana)).map((offer) => offer.id)).not.toContain(id);
  });

  it('takes back an offer still shown for an invitation that is gone once answering it finds it gone', async () => {
    const owner = await person('hal');
    const [first, second, third] = [
      await team(owner, [ana]),
      await team(owner, [ana]),
      await team(owner, [ana]),
    ];
    const [accepting, declining, open] = [
      await offered(ana, first),
      await offered(ana, second),
      await offered(ana, third),
    ];
    // As a team dissolved before withdrawals took their offers back left them.
    await t.deps.database.db
      .deleteFrom('team_invitations')
      .where('id', 'in', [accepting, declining])
      .execute();
    expect(await offers(ana)).toContainEqual({ id: accepting, outcome: undefined });

    expect((await ana.agent.put(`/api/teams/invitations/${accepting}`)).statusCode).toBe(404);
    expect((await ana.agent.delete(`/api/teams/invitations/${declining}`)).statusCode).toBe(404);

    const left = await offers(ana);
    expect(left.map((offer) => offer.id)).not.toContain(accepting);
    expect(left.map((offer) => offer.id)).not.toContain(declining);
    // The invitation still open is offered as before.
    expect(left).toContainEqual({ id: open, outcome: undefined });
  });
});
