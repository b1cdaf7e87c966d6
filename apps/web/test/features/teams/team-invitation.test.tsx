import type { NotificationResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlayStore } from '../../../src/components/overlays/overlay-store';
import { buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';
import { fakeTeamServer } from './fake-team-server';

let server: ReturnType<typeof fakeTeamServer>;
let invitationId: string;

beforeEach(() => {
  server = fakeTeamServer();
  // The fixture's user is ada@atelier.test.
  invitationId = server.invite({ email: 'ada@atelier.test', permission: 'can_edit' });
  vi.stubGlobal('fetch', server.fetch);
  document.cookie = 'XSRF-TOKEN=test-token';
  overlayStore.set((state) => ({ ...state, popup: null, toasts: [], spotlight: false }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const page = () => `/team-folder-invitation/${invitationId}`;
const refuse = (status: number, message: string) =>
  new Response(JSON.stringify({ message, code: String(status) }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('the team-folder invitation page', { timeout: 30_000 }, () => {
  it('sends a signed-out visitor to sign in, and back here afterwards', async () => {
    const { router } = await renderApp(page());
    await waitFor(() => expect(currentUrl(router)).toBe(`/sign-in?redirect=${encodeURIComponent(page())}`));
  });

  it('says who invites to what with which permission, and accepts', async () => {
    await renderApp(page(), { user: buildUser() });
    expect(await screen.findByRole('heading', { name: 'Join “Studio”' })).toBeInTheDocument();
    expect(
      screen.getByText('Olivia Owner invites you to work in the team folder “Studio”.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Can edit')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'You’re in' })).toBeInTheDocument();
    expect(screen.getByText('You accepted the invitation.')).toBeInTheDocument();
    expect(server.calls('PUT', `/api/teams/invitations/${invitationId}`)).toHaveLength(1);
    // The folder itself opens, now that the invitee is a member.
    expect(screen.getByRole('link', { name: 'Open Shared with me' })).toHaveAttribute(
      'href',
      `/platform/shared-with-me/${server.team.id}`,
    );
  });

  it('carries the token of the e-mailed link through sign-in and on every call, as the proof of the address', async () => {
    const fromMail = `${page()}?token=mailed-token`;
    const signedOut = await renderApp(fromMail);
    await waitFor(() =>
      expect(currentUrl(signedOut.router)).toBe(`/sign-in?redirect=${encodeURIComponent(fromMail)}`),
    );
    signedOut.unmount();

    await renderApp(fromMail, { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'You’re in' })).toBeInTheDocument();
    const calls = [
      ...server.calls('GET', `/api/teams/invitations/${invitationId}`),
      ...server.calls('PUT', `/api/teams/invitations/${invitationId}`),
    ];
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(call.query.get('token')).toBe('mailed-token');
  });

  it('declines', async () => {
    await renderApp(page(), { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('heading', { name: 'Invitation declined' })).toBeInTheDocument();
    expect(screen.getByText('You declined the invitation.')).toBeInTheDocument();
    expect(server.calls('DELETE', `/api/teams/invitations/${invitationId}`)).toHaveLength(1);
  });

  it.each([
    ['accepted', 'You’re in'],
    ['rejected', 'Invitation declined'],
    ['expired', 'This invitation has expired'],
  ] as const)('shows an invitation already %s, with nothing left to answer', async (status, heading) => {
    server.invitations.get(invitationId)!.attributes.status = status;
    await renderApp(page(), { user: buildUser() });
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument();
  });

  it('says something went wrong when the answer cannot reach the server', async () => {
    const answer = server.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'DELETE') throw new TypeError('Failed to fetch');
      return answer(input, init);
    });
    await renderApp(page(), { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: "That's horrible!" }));
    expect(screen.getByRole('button', { name: 'Decline' })).toBeEnabled();
  });

  it('explains a refusal (403) as an invitation for another address, without signing out', async () => {
    server.answer((request) =>
      request.path.startsWith('/api/teams/invitations/')
        ? refuse(403, 'This action is forbidden.')
        : undefined,
    );
    const { router } = await renderApp(page(), { user: buildUser() });
    expect(
      await screen.findByRole('heading', { name: 'This invitation is for another address' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/You are signed in as ada@atelier\.test\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with another account' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe(page());
  });

  it('shows the inviter what they sent, without the answer buttons', async () => {
    invitationId = server.invite({ email: 'pat@example.com', permission: 'can_view' });
    await renderApp(page(), { user: buildUser() });
    expect(await screen.findByRole('heading', { name: 'Waiting for an answer' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).not.toBeInTheDocument();
  });

  it('says when the invitation does not exist', async () => {
    invitationId = 'gone';
    await renderApp(page(), { user: buildUser() });
    expect(
      await screen.findByRole('heading', { name: 'This invitation does not exist' }),
    ).toBeInTheDocument();
  });
});

/** The invitation's notification as the server presents it: once answered or lapsed, it says how it ended. */
function invitationNotification(id: string): NotificationResource {
  const { status, folder_id } = server.invitations.get(id)!.attributes;
  return {
    id: 'n1',
    type: 'notification',
    attributes: {
      category: 'team-invitation',
      title: 'Team folder invitation',
      description: 'Olivia Owner invites you to the team folder “Studio”.',
      action: {
        type: 'invitation',
        params: { id, folder_id, ...(status === 'pending' ? {} : { outcome: status }) },
      },
      read_at: null,
      created_at: new Date().toISOString(),
    },
  };
}

describe('answering an invitation from the notification centre', { timeout: 30_000 }, () => {
  beforeEach(() => {
    server.answer((request) => {
      if (request.path === '/api/notifications' && request.method === 'GET')
        return new Response(
          JSON.stringify({
            data: [invitationNotification(invitationId)],
            meta: { unread: 1, paginate: { current_page: 1, per_page: 50, total: 1, last_page: 1 } },
          }),
          { headers: { 'Content-Type': 'application/json' } },
        );
      if (request.path === '/api/notifications/read') return new Response(null, { status: 204 });
      return undefined;
    });
  });

  async function openCentre() {
    const view = await renderApp('/platform/shared-with-me', { user: buildUser({ unread: 1 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    return { ...view, notification: await screen.findByTestId('notification') };
  }

  it('accepts with a spinner, then says accepted with a way into the folder, and lists it in Shared with me', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = server.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'PUT') await held;
      return answer(input, init);
    });
    const { notification } = await openCentre();
    const listings = server.calls('GET', '/api/teams/shared-with-me/all').length;

    await userEvent.click(within(notification).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(within(notification).getByRole('button', { name: 'Accept' })).toBeDisabled());
    expect(within(notification).getByRole('button', { name: 'Decline' })).toBeDisabled();
    release();

    expect(await screen.findByText('You accepted the invitation.')).toBeInTheDocument();
    await waitFor(() => expect(within(notification).queryByRole('button')).not.toBeInTheDocument());
    expect(within(notification).getByTestId('invitation-outcome')).toHaveTextContent('Accepted');
    expect(within(notification).getByRole('link', { name: 'Open folder' })).toHaveAttribute(
      'href',
      `/platform/shared-with-me/${server.team.id}`,
    );
    expect(server.calls('PUT', `/api/teams/invitations/${invitationId}`)).toHaveLength(1);
    await waitFor(() =>
      expect(server.calls('GET', '/api/teams/shared-with-me/all').length).toBeGreaterThan(listings),
    );
  });

  it('still shows the invitation accepted after a reload, and opens its folder', async () => {
    const first = await openCentre();
    await userEvent.click(within(first.notification).getByRole('button', { name: 'Accept' }));
    await screen.findByText('You accepted the invitation.');
    first.unmount();

    const { notification, router } = await openCentre();
    expect(within(notification).getByTestId('invitation-outcome')).toHaveTextContent('Accepted');
    expect(within(notification).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(within(notification).getByRole('link', { name: 'Open folder' }));
    await waitFor(() => expect(currentUrl(router)).toBe(`/platform/shared-with-me/${server.team.id}`));
    await waitFor(() => expect(screen.queryByTestId('notification')).not.toBeInTheDocument());
  });

  it('still shows a declined invitation declined after a reload, with nothing to answer or open', async () => {
    const first = await openCentre();
    await userEvent.click(within(first.notification).getByRole('button', { name: 'Decline' }));
    await screen.findByText('You declined the invitation.');
    first.unmount();

    const { notification } = await openCentre();
    expect(within(notification).getByTestId('invitation-outcome')).toHaveTextContent('Declined');
    expect(within(notification).queryByRole('button')).not.toBeInTheDocument();
    expect(within(notification).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows how an invitation that can no longer be answered ended, and says why', async () => {
    const { notification } = await openCentre();
    server.invitations.get(invitationId)!.attributes.status = 'expired';
    await userEvent.click(within(notification).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('This invitation has expired.')).toBeInTheDocument();
    await waitFor(() => expect(within(notification).queryByRole('button')).not.toBeInTheDocument());
    expect(within(notification).getByTestId('invitation-outcome')).toHaveTextContent('Expired');
  });

  it.each([
    ['the server fails', () => new Response(null, { status: 503 })],
    [
      'the network drops',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('says in place when %s, keeps the centre open, and tries the same answer again', async (_, fail) => {
    const answer = server.fetch;
    let failing = true;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'PUT' && failing ? fail() : answer(input, init),
    );
    const { notification } = await openCentre();
    await userEvent.click(within(notification).getByRole('button', { name: 'Accept' }));

    expect(await within(notification).findByRole('alert')).toHaveTextContent(
      'Your answer did not reach the server, so nothing has changed.',
    );
    expect(screen.queryByText('Whooops, something went wrong :(')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(within(notification).getByRole('button', { name: 'Accept' })).toBeEnabled();
    expect(server.calls('PUT', `/api/teams/invitations/${invitationId}`)).toHaveLength(0);

    failing = false;
    await userEvent.click(within(notification).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You accepted the invitation.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(notification).getByTestId('invitation-outcome')).toHaveTextContent('Accepted'),
    );
    expect(within(notification).queryByRole('alert')).not.toBeInTheDocument();
    expect(server.calls('PUT', `/api/teams/invitations/${invitationId}`)).toHaveLength(1);
  });

  it('says plainly when the invitation is gone (404), and drops it from the centre', async () => {
    const answer = server.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'DELETE' ? refuse(404, 'errors.not_found') : answer(input, init),
    );
    const { notification } = await openCentre();
    await userEvent.click(within(notification).getByRole('button', { name: 'Decline' }));

    expect(await screen.findByText('This invitation does not exist')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('notification')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByText('You’re all caught up')).toBeInTheDocument();
    expect(screen.queryByText('Whooops, something went wrong :(')).not.toBeInTheDocument();
  });
});
