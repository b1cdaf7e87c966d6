import type { Language, TranslationString } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

const languages: Language[] = [
  { locale: 'en', name: 'English', translated: 2, total: 2, is_default: true },
  { locale: 'fr', name: 'Français', translated: 0, total: 2, is_default: false },
];

/**
 * French with two strings not translated yet (and `more` others); a saved one turns translated, as on
 * the server.
 */
function fakeLanguageApi(more = 0) {
  const strings = new Map<string, TranslationString>(
    [
      { key: 'files.upload', default: 'Upload', value: 'Upload', status: 'default' as const },
      { key: 'files.rename', default: 'Rename', value: 'Rename', status: 'default' as const },
      ...Array.from({ length: more }, (_, i) => ({
        key: `more.string_${i}`,
        default: `String ${i}`,
        value: `String ${i}`,
        status: 'default' as const,
      })),
    ].map((entry) => [entry.key, entry]),
  );
  const saved: Array<{ key: string; value: string }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), 'http://atelier.test');
    if (pathname === '/api/admin/languages') return json({ data: languages });
    if (pathname === '/api/admin/languages/fr/strings' && init?.method === 'PATCH') {
      const { key, value } = JSON.parse(String(init.body)) as { key: string; value: string };
      saved.push({ key, value });
      const next = { ...strings.get(key)!, value, status: 'overridden' as const };
      strings.set(key, next);
      return json({ data: next });
    }
    if (pathname === '/api/admin/languages/fr/strings') return json({ data: [...strings.values()] });
    return json({ code: 'not_found', message: 'Not found' }, 404);
  };
  return { fetch, saved };
}

let api: ReturnType<typeof fakeLanguageApi>;

beforeEach(() => {
  document.cookie = 'XSRF-TOKEN=test-token';
  api = fakeLanguageApi();
  vi.stubGlobal('fetch', api.fetch);
});

async function openFrenchDefaults() {
  const user = userEvent.setup();
  await renderApp('/admin/language?locale=fr', { user: buildUser({ role: 'admin' }) });
  await screen.findByTestId('string-files.upload');
  await user.click(screen.getByRole('button', { name: /^Default/ }));
  return user;
}

describe('the language editor with a status filter on', { timeout: 30_000 }, () => {
  it('keeps a row being typed in after its first autosave, and saves what was typed next', async () => {
    const user = await openFrenchDefaults();
    const text = screen.getByLabelText('Text for files.upload');
    await user.clear(text);
    await user.type(text, 'Télé');
    await waitFor(() => expect(api.saved).toEqual([{ key: 'files.upload', value: 'Télé' }]));
    expect(
      await within(screen.getByTestId('string-files.upload')).findByText('Translated'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('Text for files.upload'), 'verser');
    await waitFor(() => expect(api.saved.at(-1)).toEqual({ key: 'files.upload', value: 'Téléverser' }));
  });

  it('sends what was typed when the row leaves the list before its autosave', async () => {
    const user = await openFrenchDefaults();
    const text = screen.getByLabelText('Text for files.rename');
    await user.clear(text);
    await user.type(text, 'Renommer');
    await user.click(screen.getByRole('button', { name: /^Translated/ }));

    expect(screen.queryByTestId('string-files.rename')).not.toBeInTheDocument();
    await waitFor(() => expect(api.saved).toEqual([{ key: 'files.rename', value: 'Renommer' }]));
  });
});

describe('the language editor', { timeout: 30_000 }, () => {
  it('counts the strings it lists with digit grouping', async () => {
    api = fakeLanguageApi(1_198);
    vi.stubGlobal('fetch', api.fetch);
    await renderApp('/admin/language?locale=fr', { user: buildUser({ role: 'admin' }) });
    expect(await screen.findByText('1,200 strings')).toBeInTheDocument();
  });
});
