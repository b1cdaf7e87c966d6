import type { NotificationResource } from '@atelier/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { currentUrl, renderApp } from '../../render-app';

// The realtime connection is replaced by a hand that delivers the events a test chooses.
const listeners = vi.hoisted(() => new Map<string, (payload: unknown) => void>());
vi.mock('../../../src/lib/realtime', () => ({
  subscribeRealtime: (event: string, handler: (payload: unknown) => void) => {
    listeners.set(event, handler);
    return () => listeners.delete(event);
  },
}));

function notification(
  id: string,
  title: string,
  extra: Partial<NotificationResource['attributes']> = {},
): NotificationResource {
  return {
    id,
    type: 'notification',
    attributes: {
      category: 'file-request',
      title,
      description: `${title} details`,
      action: null,
      read_at: null,
      created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      ...extra,
    },
  };
}

/**
 * The notification calls of the API, in memory, recording what the centre asked for; `withdraw`
 * takes one away as the server does when it takes an offer back.
 */
function notificationsServer(initial: NotificationResource[]) {
  let stored = initial;
  const calls: string[] = [];
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://atelier.test');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    if (url.pathname === '/api/user' && method === 'GET')
      return json(buildUser({ unread: stored.filter((n) => n.attributes.read_at === null).length }));
    if (url.pathname === '/api/notifications' && method === 'GET') {
      const unread = stored.filter((n) => n.attributes.read_at === null).length;
      return json({
        data: stored,
        meta: { unread, paginate: { current_page: 1, per_page: 50, total: stored.length, last_page: 1 } },
      });
    }
    if (url.pathname === '/api/notifications/read' && method === 'POST') {
      const now = new Date().toISOString();
      stored = stored.map((n) => ({
        ...n,
        attributes: { ...n.attributes, read_at: n.attributes.read_at ?? now },
      }));
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/api/notifications' && method === 'DELETE') {
      stored = [];
      return new Response(null, { status: 204 });
    }
    return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
  };
  const withdraw = (id: string) => {
    stored = stored.filter((n) => n.id !== id);
  };
  return { fetch, calls, withdraw };
}

describe('notification centre', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads everything on open, after showing which ones were new, and the badge goes', async () => {
    const server = notificationsServer([
      notification('n2', 'Files arrived'),
      notification('n1', 'Older news', { read_at: '2026-11-01T00:00:00.000Z' }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser({ unread: 1 }) });
    expect(await screen.findByTestId('notification-badge')).toHaveTextContent('1');

    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    const items = await screen.findAllByTestId('notification');
    expect(items.map((item) => within(item).getByText(/^(Files arrived|Older news)$/).textContent)).toEqual([
      'Files arrived',
      'Older news',
    ]);
    expect(items[0]).toHaveAttribute('data-unread');
    expect(items[1]).not.toHaveAttribute('data-unread');
    expect(within(items[0]!).getByText('5 minutes ago')).toBeInTheDocument();

    await waitFor(() => expect(server.calls).toContain('POST /api/notifications/read'));
    expect(server.calls.indexOf('GET /api/notifications')).toBeLessThan(
      server.calls.indexOf('POST /api/notifications/read'),
    );
    await waitFor(() => expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument());
    // The highlight fades after a second.
    await waitFor(() => expect(screen.getAllByTestId('notification')[0]).not.toHaveAttribute('data-unread'), {
      timeout: 3000,
    });
  });

  it('deletes every notification', async () => {
    const server = notificationsServer([notification('n1', 'One'), notification('n2', 'Two')]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser({ unread: 2 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await screen.findAllByTestId('notification');

    await userEvent.click(screen.getByRole('button', { name: 'Delete all' }));
    expect(await screen.findByText('You’re all caught up')).toBeInTheDocument();
    expect(server.calls).toContain('DELETE /api/notifications');
  });

  it('follows a route action to its named route and closes, and opens URL actions in a new tab when asked', async () => {
    const server = notificationsServer([
      notification('n1', 'Upload request filled', {
        action: { type: 'route', params: { route: 'Files', id: 'folder-7', button: 'Show files' } },
      }),
      notification('n2', 'A gift', {
        category: 'gift',
        action: { type: 'url', params: { url: 'https://example.test/offer', target: 'blank' } },
      }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
    const { router } = await renderApp('/user/profile', { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 0 unread' }));

    const gift = await screen.findByRole('link', { name: 'Open' });
    expect(gift).toHaveAttribute('href', 'https://example.test/offer');
    expect(gift).toHaveAttribute('target', '_blank');

    await userEvent.click(screen.getByRole('link', { name: 'Show files' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/platform/files/folder-7'));
    await waitFor(() => expect(screen.queryByTestId('notification')).not.toBeInTheDocument());
  });

  it('shows a project’s finished renders with a way to its outputs, and a failed render with a way to the project', async () => {
    const server = notificationsServer([
      notification('n1', 'Renders ready', {
        category: 'render-done',
        action: {
          type: 'route',
          params: { route: 'ProjectDetailsOutput', id: 'p1', button: 'See the outputs' },
        },
      }),
      notification('n2', 'A render failed', {
        category: 'render-failed',
        action: { type: 'route', params: { route: 'ProjectDetails', id: 'p1', button: 'Open the project' } },
      }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 0 unread' }));

    expect(await screen.findByRole('link', { name: 'See the outputs' })).toHaveAttribute(
      'href',
      '/projects/files/output/p1',
    );
    expect(screen.getByRole('link', { name: 'Open the project' })).toHaveAttribute(
      'href',
      '/projects/files/p1',
    );
  });

  it('renders a URL action that is not http or https as no link', async () => {
    const urlAction = (url: string) => ({ type: 'url' as const, params: { url, button: 'Claim' } });
    const server = notificationsServer([
      notification('n1', 'Script', { action: urlAction('javascript:alert(document.cookie)') }),
      notification('n2', 'Data', { action: urlAction('data:text/html,<script>alert(1)</script>') }),
      notification('n3', 'Web', { action: urlAction('http://example.test/claim') }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 0 unread' }));

    const items = await screen.findAllByTestId('notification');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(items[1]!).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Claim' })).toHaveLength(1);
    expect(within(items[2]!).getByRole('link', { name: 'Claim' })).toHaveAttribute(
      'href',
      'http://example.test/claim',
    );
  });

  it('drops from the open centre an invitation the server took back', async () => {
    const server = notificationsServer([
      notification('n2', 'Olga invited you to Studio', {
        category: 'team-invitation',
        action: {
          type: 'invitation',
          params: { id: 'invitation-1', folder_id: 'studio', expires_at: '2099-01-01T00:00:00.000Z' },
        },
      }),
      notification('n1', 'Files arrived', { read_at: '2026-11-01T00:00:00.000Z' }),
    ]);
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', {
      config: buildConfig({ broadcasting: { driver: 'socket.io' } }),
      user: buildUser({ unread: 1 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    expect(await screen.findByRole('button', { name: 'Accept' })).toBeInTheDocument();

    // The owner moved the folder to the trash.
    server.withdraw('n2');
    act(() => listeners.get('notifications.changed')!({ user_id: buildUser().data.id }));

    await waitFor(() => expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument());
    expect(screen.queryByText('Olga invited you to Studio')).not.toBeInTheDocument();
    expect(screen.getByText('Files arrived')).toBeInTheDocument();
  });
});
