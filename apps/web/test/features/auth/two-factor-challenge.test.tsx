import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

/** The challenge as the server answers it, one answer per call in turn; every body is kept. */
function fakeChallenge(answers: Response[]) {
  const bodies: unknown[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/api/two-factor-challenge') return json({ data: [] });
    bodies.push(JSON.parse(String(init?.body)));
    return answers.shift()!;
  });
  vi.stubGlobal('fetch', fetch);
  return bodies;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sign-in page: the two-factor step', () => {
  it('opens on ?two_factor=1 (a social sign-in) and checks the code before sending it', async () => {
    const bodies = fakeChallenge([]);
    await renderApp('/sign-in?two_factor=1');
    await userEvent.type(await screen.findByLabelText('Code'), '12 34');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows.')).toBeVisible();
    expect(bodies).toEqual([]);
  });

  it('shows the server’s refusals on the field, takes a recovery code and signs in', async () => {
    const throttled = 'Too many sign-in attempts. Please try again in 42 seconds.';
    const bodies = fakeChallenge([
      json(
        {
          message: 'x',
          code: 'validation_failed',
          errors: { code: ['This code is not right, or it was already used. Wait for the next one.'] },
        },
        422,
      ),
      json({ message: throttled, code: 'throttled', errors: { recovery_code: [throttled] } }, 429),
      json(buildUser()),
    ]);
    const { router } = await renderApp('/sign-in?two_factor=1');
    await userEvent.type(await screen.findByLabelText('Code'), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/This code is not right/)).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByRole('heading', { name: 'Use a recovery code' })).toBeVisible();
    const field = screen.getByLabelText('Recovery code');
    await userEvent.type(field, ' abcd-efgh-jkmn-pqrs ');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(throttled)).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
    expect(bodies).toEqual([
      { code: '123456' },
      { recovery_code: 'abcd-efgh-jkmn-pqrs' },
      { recovery_code: 'abcd-efgh-jkmn-pqrs' },
    ]);
  });

  it('goes back to the password form', async () => {
    fakeChallenge([]);
    const { router } = await renderApp('/sign-in?two_factor=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByLabelText('E-mail')).toBeVisible();
    expect(router.state.location.search).toBe('');
  });
});
