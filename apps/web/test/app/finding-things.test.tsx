import type { ItemResource } from '@atelier/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../fixtures';
import { buildItem, fakeFilesServer } from '../features/files/fake-files-server';
import { currentUrl, renderApp } from '../render-app';

let report: ItemResource;

beforeEach(() => {
  report = buildItem('file', 'report.txt');
  const starred = buildItem('file', 'moodboard.png');
  starred.relationships.favourites.data = { id: starred.id, type: 'favourite' };
  const invoices = buildItem('folder', 'Invoices');
  const inside = buildItem('file', 'march-invoice.pdf', {
    parent_id: invoices.id,
    mimetype: 'application/pdf',
  });
  vi.stubGlobal('fetch', fakeFilesServer([invoices, inside, report, starred]).fetch);
});

const fileManagerNav = () => screen.getByRole('navigation', { name: 'File manager' });
const openView = (nav: HTMLElement) => within(nav).getByRole('link', { current: 'page' });

// Each case renders the whole app; on a busy machine that alone can take seconds.
describe('finding things', { timeout: 30_000 }, () => {
  it('gives the file manager its own navigation, marks the open view, and lists the favourites', async () => {
    const { router } = await renderApp('/platform/files', { user: buildUser() });
    await screen.findByText('report.txt');
    const nav = fileManagerNav();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'My files',
      'Recent uploads',
      'Favourites',
      'Shared with me',
      'Team folders',
      'My shared links',
      'Upload requests',
      'Trash',
    ]);
    expect(openView(nav)).toHaveTextContent('My files');

    await userEvent.click(within(nav).getByRole('link', { name: 'Favourites' }));
    expect(await screen.findByRole('heading', { name: 'Favourites', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('moodboard.png')).toBeInTheDocument();
    expect(screen.queryByText('report.txt')).not.toBeInTheDocument();
    expect(openView(fileManagerNav())).toHaveTextContent('Favourites');

    await userEvent.click(within(fileManagerNav()).getByRole('link', { name: 'Trash' }));
    await vi.waitFor(() => expect(currentUrl(router)).toBe('/platform/trash'));
    expect(await screen.findByRole('heading', { name: 'Trash', level: 1 })).toBeInTheDocument();
    expect(openView(fileManagerNav())).toHaveTextContent('Trash');
  });

  it('says in the search results which folder each file lives in', async () => {
    const user = userEvent.setup();
    await renderApp('/platform/files', { user: buildUser() });
    await screen.findByText('report.txt');
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox'), 'invoice');
    expect(await screen.findByRole('option', { name: /march-invoice\.pdf/ })).toHaveTextContent(
      'In My files / Invoices',
    );
    expect(screen.getByRole('option', { name: /^Invoices/ })).toHaveTextContent('In My files');
    expect(screen.queryByText('application/pdf')).not.toBeInTheDocument();
  });

  it('reaches every view of the file manager from the phone drawer in two taps', async () => {
    const { router } = await renderApp('/user/profile', { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Open the menu' }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.click(within(drawer).getByRole('link', { name: 'Team folders' }));
    await vi.waitFor(() => expect(currentUrl(router)).toBe('/platform/team-folders'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('gives the admin area its own navigation, from which the dashboard reaches Settings in one click', async () => {
    const { router } = await renderApp('/admin/dashboard', { user: buildUser({ role: 'admin' }) });
    const nav = await screen.findByRole('navigation', { name: 'Administration sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Dashboard',
      'Users',
      'Plans',
      'Subscriptions',
      'Transactions',
      'Payments',
      'Pages',
      'Settings',
      'Languages',
    ]);
    expect(openView(nav)).toHaveTextContent('Dashboard');

    await userEvent.click(within(nav).getByRole('link', { name: 'Settings' }));
    await vi.waitFor(() => expect(currentUrl(router)).toBe('/admin/settings/appearance'));
    expect(openView(screen.getByRole('navigation', { name: 'Administration sections' }))).toHaveTextContent(
      'Settings',
    );
  });
});
