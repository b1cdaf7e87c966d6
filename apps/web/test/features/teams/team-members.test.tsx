import { en, type UserResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { buildMember, fakeTeamServer } from './fake-team-server';

let server: ReturnType<typeof fakeTeamServer>;

beforeEach(() => {
  server = fakeTeamServer({
    members: [buildMember('Eddie Editor', 'can_edit'), buildMember('Vera Viewer', 'can_view')],
  });
  vi.stubGlobal('fetch', server.fetch);
});

/** The owner, with `total` team members on a fixed plan, `counted` of them already used. */
function ownerWith(total: number, counted: string[]): UserResource {
  const user = buildUser();
  return {
    ...user,
    meta: {
      ...user.meta,
      limitations: { ...user.meta.limitations, max_team_members: { total, use: counted.length } },
      allowed_emails: counted,
    },
  };
}

async function openMembers(options: Parameters<typeof renderApp>[1] = { user: buildUser() }) {
  await renderApp(`/platform/team-folders/${server.studio.id}`, options);
  await screen.findByText('brief.txt');
  await userEvent.click(screen.getByRole('button', { name: 'Manage members' }));
  return screen.findByRole('dialog', { name: 'Members of “Studio”' });
}

const patches = () => server.calls('POST', `/api/teams/folders/${server.studio.id}`).map((call) => call.body);

describe('team members panel', { timeout: 30_000 }, () => {
  it('shows the owner and each member with a permission to change, and saves a change at once', async () => {
    const dialog = await openMembers();
    const people = within(dialog).getAllByTestId('team-person');
    expect(people.map((person) => within(person).getByRole('img').getAttribute('aria-label'))).toEqual([
      'Olivia Owner',
      'Eddie Editor',
      'Vera Viewer',
    ]);
    const eddie = within(dialog).getByLabelText('Permission of Eddie Editor');
    expect(eddie).toHaveValue('can_edit');

    await userEvent.selectOptions(eddie, 'can_view');
    await waitFor(() =>
      expect(patches()).toEqual([
        { members: [{ id: 'user-eddie', permission: 'can_view' }], _method: 'patch' },
      ]),
    );
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Permission of Eddie Editor')).toHaveValue('can_view'),
    );
    expect(server.team.members.find((member) => member.id === 'user-eddie')?.permission).toBe('can_view');
  });

  it('removes a member, who then leaves the list', async () => {
    const dialog = await openMembers();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Vera Viewer' }));
    await waitFor(() => expect(patches()).toEqual([{ remove_members: ['user-vera'], _method: 'patch' }]));
    await waitFor(() => expect(within(dialog).queryByText('Vera Viewer')).not.toBeInTheDocument());
    expect(within(dialog).getByText('Eddie Editor')).toBeInTheDocument();
  });

  it('invites by e-mail with a permission, and lists the invitation as pending', async () => {
    const dialog = await openMembers();
    await userEvent.type(within(dialog).getByLabelText('Invite by e-mail'), 'Pat@Example.com');
    await userEvent.selectOptions(within(dialog).getByLabelText('Permission', { exact: true }), 'can_edit');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() =>
      expect(patches()).toEqual([
        { invitations: [{ email: 'pat@example.com', permission: 'can_edit' }], _method: 'patch' },
      ]),
    );
    const invitation = await within(dialog).findByTestId('team-invitation');
    expect(invitation).toHaveTextContent('pat@example.com');
    expect(invitation).toHaveTextContent('Pending');
    expect(within(dialog).getByLabelText('Invite by e-mail')).toHaveValue('');
  });

  it('refuses in the form an invite past the member limit of a fixed plan, but not someone already counted', async () => {
    const counted = ['eddie@atelier.test', 'vera@atelier.test', 'sam@atelier.test'];
    const dialog = await openMembers({
      user: ownerWith(3, counted),
      config: buildConfig({ subscriptionType: 'fixed' }),
    });
    expect(
      within(dialog).getByText('3 of 3 team members on your plan, counting invitations.'),
    ).toBeInTheDocument();
    const email = within(dialog).getByLabelText('Invite by e-mail');

    await userEvent.type(email, 'newcomer@atelier.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(
      await within(dialog).findByText('Your plan allows 3 team members, counting pending invitations.'),
    ).toBeInTheDocument();
    expect(patches()).toEqual([]);

    // Sam is pending in another team of the owner's: no new member, so the invite goes.
    await userEvent.clear(email);
    await userEvent.type(email, 'sam@atelier.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(patches()).toHaveLength(1));
  });

  it('leaves the limit to the server on a metered plan, and shows its refusal on the field', async () => {
    server.answer((request) =>
      request.method === 'POST' && request.path.startsWith('/api/teams/folders/')
        ? new Response(
            JSON.stringify({
              message: 'The given data was invalid.',
              code: 'validation_failed',
              errors: { invitations: ['Your plan allows 2 team members, counting pending invitations.'] },
            }),
            { status: 422, headers: { 'Content-Type': 'application/json' } },
          )
        : undefined,
    );
    const dialog = await openMembers({
      user: ownerWith(2, ['eddie@atelier.test', 'vera@atelier.test']),
      config: buildConfig({ subscriptionType: 'metered' }),
    });
    expect(within(dialog).getByText('Invitations are valid for 7 days.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Invite by e-mail'), 'newcomer@atelier.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(
      await within(dialog).findByText('Your plan allows 2 team members, counting pending invitations.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Invite by e-mail')).toHaveValue('newcomer@atelier.test');
  });

  it('refuses an address that is no e-mail, the owner’s own, or one already in the team', async () => {
    const dialog = await openMembers();
    const email = within(dialog).getByLabelText('Invite by e-mail');
    const invite = within(dialog).getByRole('button', { name: 'Invite' });
    for (const [typed, message] of [
      ['not-an-address', en['validation.email']],
      ['ada@atelier.test', 'You own this team folder; invite someone else.'],
      ['vera@atelier.test', 'vera@atelier.test is already in this team or invited.'],
    ]) {
      await userEvent.clear(email);
      await userEvent.type(email, typed!);
      await userEvent.click(invite);
      expect(await within(dialog).findByText(message!)).toBeInTheDocument();
    }
    expect(patches()).toEqual([]);
  });
});
