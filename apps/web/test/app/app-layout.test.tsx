import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../fixtures';
import { renderApp } from '../render-app';

describe('signed-in layout', () => {
  it('marks the entry of the current section and shows the unread count on the bell', async () => {
    await renderApp('/gallery/files', { user: buildUser({ dateStatus: false, unread: 3 }) });
    const navigation = (await screen.findAllByRole('navigation', { name: 'Main navigation' }))[0]!;
    expect(
      within(navigation)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Profile', 'Upload', 'Gallery']);
    expect(within(navigation).getByRole('link', { name: 'Gallery' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('3');
  });

  it('links the shipped user guide PDF and the support address', async () => {
    await renderApp('/user/profile', { user: buildUser() });
    const guide = (await screen.findAllByRole('link', { name: 'User Guides' }))[0]!;
    expect(guide).toHaveAttribute('href', '/docs/atelier-user-guide.pdf');
    expect(existsSync(join(import.meta.dirname, '../../public/docs/atelier-user-guide.pdf'))).toBe(true);
    expect(screen.getAllByRole('link', { name: 'Support' })[0]).toHaveAttribute(
      'href',
      'mailto:support@atelier.test',
    );
  });

  it('starts another address at the top and leaves the first where the browser has it', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    await renderApp('/user/profile', { user: buildUser() });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    expect(scrollTo).not.toHaveBeenCalled();

    await userEvent.click((await screen.findAllByRole('link', { name: 'Gallery' }))[0]!);
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith(0, 0));
    scrollTo.mockRestore();
  });

  it('hides the badge when nothing is unread', async () => {
    await renderApp('/user/profile', { user: buildUser({ unread: 0 }) });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
  });

  it('shows the red restriction bar with the reason and the way to Billing', async () => {
    await renderApp('/user/profile', { user: buildUser({ reason: 'Your storage is full.' }) });
    const bar = await screen.findByRole('alert');
    expect(bar).toHaveTextContent('Your account is restricted.');
    expect(bar).toHaveTextContent('Your storage is full.');
    expect(within(bar).getByRole('link', { name: 'Go to Billing' })).toHaveAttribute(
      'href',
      '/user/settings/billing',
    );
  });

  it('opens the spotlight with Ctrl+K and closes it with Escape or a backdrop click', async () => {
    await renderApp('/user/profile', { user: buildUser() });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });

    await userEvent.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Search' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument());

    await userEvent.keyboard('{Meta>}k{/Meta}');
    await screen.findByRole('dialog', { name: 'Search' });
    await userEvent.click(screen.getByTestId('spotlight-backdrop'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument());
  });

  it('opens the mobile menu as a drawer that a backdrop click closes', async () => {
    await renderApp('/user/profile', { user: buildUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Open the menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Main navigation' });
    expect(within(drawer).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByTestId('menu-backdrop'));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Main navigation' })).not.toBeInTheDocument(),
    );
  });
});
