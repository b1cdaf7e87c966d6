import type { AdminUserListItem } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

const account = (id: string, name: string): AdminUserListItem => {
  const { attributes } = buildUser({ name }).data;
  return {
    id,
    type: 'user',
    attributes: { ...attributes, email: `${name.toLowerCase()}@atelier.test` },
    meta: { usages: { used: 0, capacity: null } },
  };
};
const accounts = [account('u1', 'Alice'), account('u2', 'Bob')];

beforeEach(() => {
  // The admin's users list, filtered by the search in its address.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://atelier.test');
    if (url.pathname === '/api/admin/users') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const data = accounts.filter((a) => a.attributes.name.toLowerCase().includes(search));
      return json({
        data,
        meta: { paginate: { current_page: 1, per_page: 20, total: data.length, last_page: 1 } },
      });
    }
    if (url.pathname === '/api/admin/pages') return json({ data: [] });
    return json({ message: 'Not found', code: 'not_found' }, 404);
  });
});

/** The search the address holds, which the list is filtered by. */
const searchIn = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search).get('search');
const rows = () => screen.getAllByTestId('user-row').map((row) => within(row).getByRole('link').textContent);
const searchBox = () => screen.getByRole('searchbox', { name: 'Search users' });
const adminNav = () => screen.getByRole('navigation', { name: 'Administration sections' });

/** The users list with "ali" typed into its search and the list filtered by it. */
async function listSearchedForAli() {
  const user = userEvent.setup();
  const { router } = await renderApp('/admin/users', { user: buildUser({ role: 'admin' }) });
  await user.type(await screen.findByRole('searchbox', { name: 'Search users' }), 'ali');
  await waitFor(() => expect(searchIn(router)).toBe('ali'));
  await waitFor(() => expect(rows()).toEqual(['Alice']));
  expect(searchBox()).toHaveValue('ali');
  return { user, router };
}

/** The box and the list agree on no search, and still do after the box's typing delay. */
async function expectUnfilteredWithEmptyBox(router: Parameters<typeof searchIn>[0]) {
  await waitFor(() => expect(rows()).toEqual(['Alice', 'Bob']));
  expect(searchBox()).toHaveValue('');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(searchIn(router)).toBeNull();
  expect(searchBox()).toHaveValue('');
  expect(rows()).toEqual(['Alice', 'Bob']);
}

describe('the admin users list: search and the sidebar', { timeout: 30_000 }, () => {
  it('opens unfiltered with an empty box from the sidebar, after a search and another section', async () => {
    const { user, router } = await listSearchedForAli();
    await user.click(within(adminNav()).getByRole('link', { name: 'Pages' }));
    await waitFor(() => expect(screen.queryByRole('searchbox', { name: 'Search users' })).toBeNull());
    await user.click(within(adminNav()).getByRole('link', { name: 'Users' }));
    await expectUnfilteredWithEmptyBox(router);
  });

  it('clears the box with the filter when Users is clicked on the filtered list itself', async () => {
    const { user, router } = await listSearchedForAli();
    await user.click(within(adminNav()).getByRole('link', { name: 'Users' }));
    await expectUnfilteredWithEmptyBox(router);
  });
});
