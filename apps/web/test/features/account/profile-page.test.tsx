import type { UserResource } from '@atelier/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlayStore } from '../../../src/components/overlays/overlay-store';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json, noContent } from '../../responses';

const PHOTO = { xs: '/api/avatars/k/xs', sm: '/api/avatars/k/sm', md: '/api/avatars/k/md' };

function withAvatar(user: UserResource, avatar: UserResource['data']['attributes']['avatar']): UserResource {
  return { ...user, data: { ...user.data, attributes: { ...user.data.attributes, avatar } } };
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The account calls the page makes, answered as the server would; every call is kept. */
function fakeServer(answers: Record<string, (body: unknown) => Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    const body =
      init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    return answers[`${method} ${path}`]?.(body) ?? json({ data: [] });
  });
  return {
    fetch,
    calls: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** An image that "loads" at once with the given size, for the crop dialog. */
class LoadedImage {
  naturalWidth = 400;
  naturalHeight = 200;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(_url: string) {
    queueMicrotask(() => this.onload?.());
  }
}

let drawn: number[][];

beforeEach(() => {
  document.cookie = 'XSRF-TOKEN=test-token';
  overlayStore.set((state) => ({ ...state, popup: null, toasts: [] }));
  drawn = [];
  vi.stubGlobal('Image', LoadedImage);
  URL.createObjectURL = vi.fn(() => 'blob:picked');
  URL.revokeObjectURL = vi.fn();
  // The spy is typed by getContext's last overload (WebGPU's, once three.js's types are in): the
  // crop draws through '2d', which is all this stands in for.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () =>
      ({
        drawImage: (_image: unknown, ...area: number[]) => drawn.push(area),
      }) as Partial<CanvasRenderingContext2D> as never,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) =>
    callback(new Blob(['cropped'], { type: 'image/webp' })),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const pick = (file: File) =>
  fireEvent.change(screen.getByLabelText('Upload photo', { selector: 'input' }), {
    target: { files: [file] },
  });

describe('the profile page', { timeout: 30_000 }, () => {
  it('shows the names and the e-mail, and saves a name as it is typed', async () => {
    const answers = fakeServer({ 'POST /api/user/settings': () => noContent() });
    vi.stubGlobal('fetch', answers.fetch);
    await renderApp('/user/profile', { user: buildUser() });

    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@atelier.test');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');

    const name = screen.getByLabelText('Display name');
    await userEvent.clear(name);
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    await userEvent.type(name, 'Countess');
    await waitFor(() =>
      expect(answers.calls('POST', '/api/user/settings').map((c) => c.body)).toEqual([
        { name: 'name', value: 'Countess', _method: 'patch' },
      ]),
    );
    // The sidebar shows the new name's letter at once.
    expect(screen.getAllByRole('img', { name: 'Countess' }).length).toBeGreaterThan(0);
  });

  it('chooses the theme, saved to the account', async () => {
    const answers = fakeServer({ 'POST /api/user/settings': () => noContent() });
    vi.stubGlobal('fetch', answers.fetch);
    await renderApp('/user/profile', { user: buildUser() });

    const themes = await screen.findByRole('radiogroup', { name: 'Theme' });
    expect(within(themes).getByRole('radio', { name: /Light/ })).toBeChecked();
    await userEvent.click(within(themes).getByRole('radio', { name: /Dark/ }));
    expect(document.documentElement).toHaveClass('dark');
    await waitFor(() =>
      expect(answers.calls('POST', '/api/user/settings').map((c) => c.body)).toEqual([
        { name: 'theme_mode', value: 'dark', _method: 'patch' },
      ]),
    );
  });

  it('refuses an svg before sending anything', async () => {
    const server = fakeServer({});
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });
    await screen.findByRole('heading', { name: 'Profile' });

    pick(new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('Choose a PNG, JPEG or WebP image.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/avatar')).toEqual([]);
  });

  it('crops the picked photo square, moved with the keyboard, and uploads it', async () => {
    const server = fakeServer({ 'POST /api/user/avatar': () => json(withAvatar(buildUser(), PHOTO)) });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });
    await screen.findByRole('heading', { name: 'Profile' });

    pick(new File(['png'], 'me.png', { type: 'image/png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crop your photo' });
    // The 400 x 200 image's centred square.
    expect(drawn.at(-1)!.slice(0, 3)).toEqual([100, 0, 200]);
    fireEvent.keyDown(within(dialog).getByRole('img', { name: /Photo crop area/ }), { key: 'ArrowLeft' });
    // Moving the photo left shows more of its right.
    await waitFor(() => expect(drawn.at(-1)![0]).toBeGreaterThan(100));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save photo' }));
    await waitFor(() => expect(server.calls('POST', '/api/user/avatar')).toHaveLength(1));
    const form = server.calls('POST', '/api/user/avatar')[0]!.body as FormData;
    expect(form.get('avatar')).toBeInstanceOf(Blob);
    // The square last shown is what was sent, at 256 pixels.
    expect(drawn.at(-1)).toEqual([...drawn.at(-2)!.slice(0, 4), 0, 0, 256, 256]);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    for (const image of screen.getAllByRole('img', { name: 'Ada Lovelace' }))
      expect(image.tagName === 'IMG' ? image.getAttribute('src') : PHOTO.md).toMatch(/\/api\/avatars\/k\//);
    expect(screen.getByRole('button', { name: 'Remove photo' })).toBeInTheDocument();
  });

  it('removes the photo, back to the letter', async () => {
    const server = fakeServer({ 'POST /api/user/avatar/current': () => json(buildUser()) });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: withAvatar(buildUser(), PHOTO) });

    await userEvent.click(await screen.findByRole('button', { name: 'Remove photo' }));
    await waitFor(() =>
      expect(server.calls('POST', '/api/user/avatar/current').map((c) => c.body)).toEqual([
        { _method: 'delete' },
      ]),
    );
    expect(await screen.findByRole('button', { name: 'Upload photo' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove photo' })).not.toBeInTheDocument();
  });

  it('changes the password: checks the confirmation here and shows a wrong current password from the server', async () => {
    let wrong = true;
    const server = fakeServer({
      'POST /api/user/password': () =>
        wrong
          ? json(
              {
                message: 'The given data was invalid.',
                code: 'validation_failed',
                errors: { current_password: ['This is not your current password.'] },
              },
              422,
            )
          : noContent(),
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });

    await userEvent.type(await screen.findByLabelText('Current password'), 'old password');
    await userEvent.type(screen.getByLabelText('New password'), 'a new password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'another one');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The password confirmation does not match.')).toBeInTheDocument();
    expect(server.calls('POST', '/api/user/password')).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('This is not your current password.')).toBeInTheDocument();

    wrong = false;
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText(
        'Your password was changed. Other devices were signed out, and your app passwords were revoked.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(server.calls('POST', '/api/user/password').at(-1)!.body).toEqual({
      current_password: 'old password',
      password: 'a new password',
      password_confirmation: 'a new password',
    });
  });

  it('a changed password takes the signed-out devices and the revoked app passwords off their lists', async () => {
    const device = (id: string, browser: string, current: boolean) => ({
      id,
      type: 'session',
      attributes: {
        created_at: '2026-05-01T10:00:00.000Z',
        last_active_at: '2026-05-01T10:00:00.000Z',
        ip: null,
        user_agent: null,
        browser,
        os: null,
        device: 'desktop',
        current,
      },
    });
    const here = device('s1', 'Firefox 128', true);
    let changed = false;
    const server = fakeServer({
      'POST /api/user/password': () => {
        changed = true;
        return noContent();
      },
      // The server ends the other sessions and every app password with the change.
      'GET /api/user/sessions': () =>
        json({ data: changed ? [here] : [here, device('s2', 'Safari 17', false)] }),
      'GET /api/user/app-passwords': () =>
        json({
          data: changed
            ? []
            : [
                {
                  id: 'a1',
                  type: 'app_password',
                  attributes: {
                    name: 'Backup script',
                    created_at: '2026-05-01T10:00:00.000Z',
                    last_used_at: null,
                  },
                },
              ],
        }),
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderApp('/user/profile', { user: buildUser() });
    const devices = await screen.findByRole('list', { name: 'Devices' });
    expect(within(devices).getByText('Safari 17')).toBeInTheDocument();
    const passwords = await screen.findByRole('list', { name: 'App passwords' });
    expect(within(passwords).getByText('Backup script')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Current password'), 'old password');
    await userEvent.type(screen.getByLabelText('New password'), 'a new password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'a new password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/Your password was changed/)).toBeInTheDocument();

    await waitFor(() => expect(screen.queryByText('Safari 17')).not.toBeInTheDocument());
    expect(screen.getByText('Firefox 128')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Backup script')).not.toBeInTheDocument());
  });
});
