import type { Language } from '@atelier/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

/** The instance's languages, added and removed as on the server, which its config lists too. */
function fakeLanguageApi() {
  let languages: Language[] = [{ locale: 'en', name: 'English', translated: 2, total: 2, is_default: true }];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), 'http://atelier.test');
    const method = init?.method ?? 'GET';
    if (pathname === '/api/config')
      return json(buildConfig({ languages: languages.map(({ locale, name }) => ({ locale, name })) }));
    if (pathname === '/api/admin/languages' && method === 'POST') {
      const { locale, name } = JSON.parse(String(init?.body)) as { locale: string; name: string };
      const added = { locale, name, translated: 0, total: 2, is_default: false };
      languages = [...languages, added];
      return json({ data: added }, 201);
    }
    if (pathname === '/api/admin/languages') return json({ data: languages });
    if (pathname === '/api/admin/languages/de' && method === 'DELETE') {
      languages = languages.filter((language) => language.locale !== 'de');
      return new Response(null, { status: 204 });
    }
    if (method === 'GET') return json({ data: [] });
    return json({ code: 'not_found', message: 'Not found' }, 404);
  };
  return { fetch };
}

const languageOptions = () =>
  within(screen.getByLabelText('Language'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the language pickers', { timeout: 30_000 }, () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token';
    vi.stubGlobal('fetch', fakeLanguageApi().fetch);
  });

  it('offer a language as soon as it is added in Admin → Languages, and no more once it is removed', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp('/admin/language', { user: buildUser({ role: 'admin' }) });
    await user.click(await screen.findByRole('button', { name: 'Add language' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Language code'), 'de');
    await user.type(within(dialog).getByLabelText('Name'), 'Deutsch');
    await user.click(within(dialog).getByRole('button', { name: 'Add language' }));
    expect(await screen.findByText('Deutsch was added.')).toBeInTheDocument();

    await act(() => router.navigate('/user/profile'));
    await waitFor(() => expect(languageOptions()).toContain('Deutsch'));

    await act(() => router.navigate('/admin/language?locale=de'));
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Deutsch?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(await screen.findByText('Deutsch was removed.')).toBeInTheDocument();

    await act(() => router.navigate('/user/profile'));
    await waitFor(() =>
      expect(languageOptions()).toEqual(['Instance default (or your browser’s language)', 'English']),
    );
  });
});
