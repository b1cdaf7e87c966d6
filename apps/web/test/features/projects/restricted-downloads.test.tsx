import type { ProjectFileResource, UserResource } from '@atelier/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';
import { buildItem } from '../files/fake-files-server';

const project = {
  id: 'p1',
  type: 'project',
  attributes: {
    name: 'Rings',
    description: null,
    user_id: 'u1',
    folder_id: 'f1',
    output_folder_id: 'o1',
    settings: {},
    inputs: 1,
    outputs: 1,
    renders: { queued: 0, rendering: 0, done: 1, failed: 0 },
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
  },
};
const render: ProjectFileResource = {
  ...buildItem('file', 'ring-front.png', { mimetype: 'image/png', filesize: 2048, file_url: '/file/r1' }),
  meta: { kind: 'output', project_id: 'p1', render: null, model_version: null },
};
const paginate = { current_page: 1, per_page: 100, total: 1, last_page: 1 };

/** A user whose downloads are held back, as a metered account that could not pay is. */
function restrictedUser(): UserResource {
  const user = buildUser();
  return {
    ...user,
    meta: { ...user.meta, restrictions: { ...user.meta.restrictions, canDownload: false } },
  };
}

describe("the studio's downloads", { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), 'http://atelier.test');
      if (pathname === '/api/browse/projects/p1')
        return json({ data: [], meta: { paginate, root: project } });
      if (pathname === '/api/browse/projects/files/p1')
        return json({ data: [render], meta: { paginate, root: project } });
      return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('hold back the outputs zip and each output while downloads are restricted, with the usual alert', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/output/p1', { user: restrictedUser() });
    await screen.findByText('ring-front.png');
    for (const link of [
      screen.getByRole('link', { name: 'Download zip' }),
      screen.getByRole('link', { name: 'Download ring-front.png' }),
    ]) {
      await user.click(link);
      expect(await screen.findByText('Downloading is temporarily disabled')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: /That/ }));
      await waitFor(() =>
        expect(screen.queryByText('Downloading is temporarily disabled')).not.toBeInTheDocument(),
      );
    }
  });
});
