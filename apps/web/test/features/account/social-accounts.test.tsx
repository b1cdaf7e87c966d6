import type { LinkedSocialAccounts, PublicSocialProvider } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json, noContent } from '../../responses';

const providers: PublicSocialProvider[] = [
  { name: 'corporate', kind: 'oidc', label: 'Corporate SSO' },
  { name: 'github', kind: 'github', label: null },
];

/** The calls the section makes, answered as the server would. */
function fakeServer(linked: LinkedSocialAccounts) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push(call);
    if (call === 'GET /api/user/social-accounts') return json(linked);
    if (call === 'GET /api/socialite/github/redirect?intent=link')
      return json({ data: { url: 'https://github.test/authorize?state=s' } });
    if (call === 'DELETE /api/user/social-accounts/corporate') return noContent();
    return json({ data: [] });
  });
  return { fetch, calls };
}

const account = (provider: string, email: string) => ({
  provider,
  kind: null,
  label: null,
  email,
  created_at: '2026-05-01T10:00:00.000Z',
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the profile page: connected accounts', () => {
  it('lists each provider on offer, connects one through its redirect and disconnects another', async () => {
    const server = fakeServer({
      data: [account('corporate', 'ada@corp.test')],
      meta: { password_set: true },
    });
    vi.stubGlobal('fetch', server.fetch);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    await renderApp('/user/profile', {
      user: buildUser(),
      config: buildConfig({ socialProviders: providers }),
    });

    const corporate = (await screen.findByText('Corporate SSO')).closest('li')!;
    expect(within(corporate).getByText('Connected as ada@corp.test')).toBeInTheDocument();
    const github = screen.getByText('GitHub').closest('li')!;
    expect(within(github).getByText('Not connected')).toBeInTheDocument();

    await userEvent.click(within(github).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://github.test/authorize?state=s'));

    await userEvent.click(within(corporate).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(server.calls).toContain('DELETE /api/user/social-accounts/corporate'));
    expect(await screen.findByText('Corporate SSO was disconnected.')).toBeInTheDocument();
  });

  it('keeps the only way into an account without a password, and says how to set one', async () => {
    const server = fakeServer({
      data: [account('github', 'ada@github.test')],
      meta: { password_set: false },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', {
      user: buildUser(),
      config: buildConfig({ socialProviders: providers }),
    });

    const github = (await screen.findByText('GitHub')).closest('li')!;
    expect(within(github).getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    expect(screen.getByText(/This is your only way to sign in\./)).toBeInTheDocument();
  });

  it('shows why a link was refused', async () => {
    const server = fakeServer({ data: [], meta: { password_set: true } });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile?social_error=already_linked', {
      user: buildUser(),
      config: buildConfig({ socialProviders: providers }),
    });
    expect(
      await screen.findByText('This provider account is already linked to another account.'),
    ).toBeInTheDocument();
  });
});

describe('the sign-in page: provider buttons', () => {
  it('names each button after its provider and explains a refused callback', async () => {
    vi.stubGlobal('fetch', fakeServer({ data: [], meta: { password_set: true } }).fetch);
    await renderApp('/sign-in?social_error=email_unverified', {
      config: buildConfig({ socialProviders: providers }),
    });
    expect(await screen.findByRole('button', { name: 'Continue with Corporate SSO' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with GitHub' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('sign in with your password first');
  });

  it('shows no message for a code it does not know', async () => {
    vi.stubGlobal('fetch', fakeServer({ data: [], meta: { password_set: true } }).fetch);
    await renderApp('/sign-in?social_error=<b>made-up</b>', {
      config: buildConfig({ socialProviders: providers }),
    });
    await screen.findByRole('button', { name: 'Continue with GitHub' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
