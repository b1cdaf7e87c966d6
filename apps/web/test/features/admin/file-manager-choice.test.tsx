import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';

const OTHERS = {
  registration: true,
  email_verification: false,
  storage_limitation: true,
  maintenance: false,
  file_manager_for_all: false,
  file_manager_cutoff: '2024-03-19',
  default_storage_gb: 5,
  default_team_members: -1,
  upload_limit: 0,
  chunk_size: 8 * 1024 * 1024,
  mimetypes_blacklist: [],
  locale: 'en',
};

/** The API in memory: the settings it holds and the bodies it was sent. */
function fakeApi(
  answerPost: (body: Record<string, unknown>) => Response = () => new Response(null, { status: 204 }),
) {
  const posted: Array<Record<string, unknown>> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://atelier.test');
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push(body);
      return answerPost(body);
    }
    if (url.pathname === '/api/admin/settings') return json(OTHERS);
    if (url.pathname === '/api/setup/status-check') return json({ checks: [] });
    return json({ code: 'not_found', message: 'Not found' }, 404);
  };
  return { fetch, posted };
}

const choice = (name: RegExp) => screen.getByRole('radio', { name });

describe('what accounts created after the cutoff get', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=test-token';
  });
  afterEach(() => vi.unstubAllGlobals());

  it('in the admin settings: says the effect in plain words, and saves the day and the choice', async () => {
    const api = fakeApi();
    vi.stubGlobal('fetch', api.fetch);
    await renderApp('/admin/settings/others', { user: buildUser({ role: 'admin' }) });

    expect(
      await screen.findByRole(
        'radiogroup',
        { name: 'Accounts created on or after March 19, 2024 get' },
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(choice(/The studio only/)).toBeChecked();
    expect(
      screen.getByText(
        'Accounts created before March 19, 2024 get the studio and the file manager; accounts created from March 19, 2024 on get the studio only.',
      ),
    ).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Cutoff date'), { target: { value: '2025-01-10' } });
    expect(
      screen.getByRole('radiogroup', { name: 'Accounts created on or after January 10, 2025 get' }),
    ).toBeInTheDocument();
    await userEvent.click(choice(/The studio and the file manager/));
    expect(
      screen.getByText('Every account gets the studio and the file manager, whenever it was created.'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() => expect(api.posted).toHaveLength(1));
    expect(api.posted[0]!.settings).toMatchObject({
      file_manager_cutoff: '2025-01-10',
      file_manager_for_all: true,
    });
  });

  it("in the admin settings: shows the server's refusal under the date", async () => {
    const api = fakeApi(() =>
      json(
        {
          code: 'validation',
          message: 'Invalid',
          errors: { file_manager_cutoff: ['Use a date like 2024-05-31.'] },
        },
        422,
      ),
    );
    vi.stubGlobal('fetch', api.fetch);
    await renderApp('/admin/settings/others', { user: buildUser({ role: 'admin' }) });

    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    const field = screen.getByLabelText('Cutoff date');
    await vi.waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Use a date like 2024-05-31.')).toBeInTheDocument();
  });

  it("in the setup wizard's application step: sends the choice with the instance's settings", async () => {
    document.cookie = 'atelier_setup_token=valid';
    const api = fakeApi(() => json({ ok: true }));
    vi.stubGlobal('fetch', api.fetch);
    await renderApp('/setup-wizard/app-setup', {
      config: buildConfig({ installation: 'installation-needed' }),
    });

    const form = (await screen.findByRole('button', { name: 'Save and continue' })).closest('form')!;
    expect(within(form).getByLabelText('Cutoff date')).toHaveValue('2024-03-19');
    await userEvent.type(within(form).getByLabelText('Contact e-mail'), 'hello@studio.test');
    await userEvent.click(choice(/The studio and the file manager/));
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));

    await vi.waitFor(() => expect(api.posted).toHaveLength(1));
    expect(api.posted[0]).toMatchObject({ fileManagerCutoff: '2024-03-19', fileManagerForAll: true });
  });
});
