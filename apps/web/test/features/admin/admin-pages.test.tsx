import type { PageResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

/** One page on a server in memory, and the bodies its PATCHes were sent. */
function pagesServer() {
  let page: PageResource['data'] = {
    id: 'terms',
    type: 'page',
    attributes: {
      slug: 'terms',
      title: 'Terms',
      content: 'The terms.',
      html: '<p>The terms.</p>',
      visibility: false,
      updated_at: '2026-05-01T10:00:00.000Z',
    },
  };
  const patched: Array<Record<string, unknown>> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), 'http://atelier.test');
    if (pathname === '/api/admin/pages/preview') return json({ data: { html: page.attributes.html } });
    if (pathname === '/api/admin/pages/terms' && init?.method === 'PATCH') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      patched.push(body);
      page = { ...page, attributes: { ...page.attributes, ...body } };
      return json({ data: page });
    }
    if (pathname === '/api/admin/pages') return json({ data: [page] });
    if (pathname === '/api/pages/terms') return json({ data: page });
    return json({ code: 'not_found', message: 'Not found' }, 404);
  };
  return { fetch, patched };
}

describe('admin content pages', () => {
  let server: ReturnType<typeof pagesServer>;
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token';
    server = pagesServer();
    vi.stubGlobal('fetch', server.fetch);
  });

  it('a page made visible in the list opens visible in its editor, and a save keeps it visible', async () => {
    const user = userEvent.setup();
    await renderApp('/admin/pages/terms', { user: buildUser({ role: 'admin' }) });
    await user.click(await screen.findByRole('link', { name: 'All pages' }));

    const row = await screen.findByTestId('page-terms');
    await user.click(within(row).getByRole('switch', { name: 'Visible' }));
    await waitFor(() => expect(within(row).getByRole('switch', { name: 'Visible' })).toBeChecked());

    await user.click(within(row).getByRole('link', { name: 'Edit' }));
    const title = await screen.findByLabelText('Title');
    await user.type(title, ' of use');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.patched).toHaveLength(2));
    expect(server.patched[1]).toEqual({ title: 'Terms of use', content: 'The terms.', visibility: true });
    expect(screen.getByRole('switch', { name: /Visible|Hidden/ })).toBeChecked();
  });
});
