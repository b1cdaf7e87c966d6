import type { ProjectFileResource, RenderJobResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
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
    outputs: 2,
    renders: { queued: 0, rendering: 0, done: 1, failed: 0 },
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
  },
};
const job: RenderJobResource = {
  id: 'j1',
  type: 'job',
  attributes: {
    name: 'projects.render',
    project_id: 'p1',
    input_id: 'i1',
    input_name: 'signet-ring.stl',
    category_id: 'ring',
    engine: 'draft',
    status: 'done',
    progress: 100,
    error: null,
    attempts: 1,
    created_at: '2026-05-02T09:00:00.000Z',
    updated_at: '2026-05-02T09:01:00.000Z',
  },
};
const output = (name: string, mimetype: string, filesize: number): ProjectFileResource => ({
  ...buildItem('file', name, { mimetype, filesize, created_at: '2026-05-02T09:01:00.000Z' }),
  meta: { kind: 'output', project_id: 'p1', render: job, model_version: null },
});
const still = output('signet-ring-three-quarter-front.png', 'image/png', 310_000);
const video = output('signet-ring-turntable.mp4', 'video/mp4', 1_900_000);
/** A colourway's outputs carry its id after the camera; a re-render's, a number after that. */
const inRoseGold = (file: ProjectFileResource): ProjectFileResource => ({
  ...file,
  meta: {
    ...file.meta,
    render: { ...job, attributes: { ...job.attributes, variant: { id: 'rose-gold', name: 'Rose gold' } } },
  },
});
const roseStill = inRoseGold(output('signet-ring-front-rose-gold.png', 'image/png', 290_000));
const roseVideo = inRoseGold(output('signet-ring-turntable-rose-gold (1).mp4', 'video/mp4', 1_800_000));
const paginate = { current_page: 1, per_page: 100, total: 2, last_page: 1 };
let covers: Array<{ path: string; body: unknown }> = [];
let outputs: ProjectFileResource[] = [];

describe("a project's outputs open in the file manager's previewer", { timeout: 30_000 }, () => {
  beforeEach(() => {
    covers = [];
    outputs = [still, video];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const { pathname } = new URL(String(input), 'http://atelier.test');
      if (pathname === '/api/projects/p1/cover' && init?.method === 'POST') {
        covers.push({ path: pathname, body: JSON.parse(String(init.body)) });
        const cover = { id: still.id, url: still.attributes.file_url, chosen: true };
        return new Response(
          JSON.stringify({ data: { ...project, attributes: { ...project.attributes, cover } } }),
          {
            headers: { 'Content-Type': 'application/json' },
          },
        );
      }
      if (pathname === '/api/browse/projects/p1')
        return json({ data: [], meta: { paginate, root: project } });
      if (pathname === '/api/browse/projects/files/p1')
        return json({ data: outputs, meta: { paginate, root: project } });
      return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says which camera, how big, when and by which engine, steps with the arrows, makes a still the cover and closes', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/output/p1', { user: buildUser() });
    await user.click(await screen.findByRole('button', { name: `Open ${still.attributes.name}` }));

    const viewer = await screen.findByRole('dialog');
    expect(within(viewer).getByRole('heading', { name: still.attributes.name })).toBeInTheDocument();
    const caption = within(viewer).getByTestId('preview-caption');
    expect(caption).toHaveTextContent(/^Three-quarter front · 310 KB · .*2026.* · Draft engine$/);
    expect(within(viewer).getByRole('img', { name: still.attributes.name })).toHaveAttribute(
      'src',
      still.attributes.file_url,
    );
    expect(within(viewer).queryByRole('button', { name: 'Previous file' })).not.toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    expect(within(viewer).getByRole('heading', { name: video.attributes.name })).toBeInTheDocument();
    expect(caption).toHaveTextContent(/^Turntable · 1\.9 MB · /);
    expect(within(viewer).queryByRole('button', { name: 'Next file' })).not.toBeInTheDocument();

    // A video cannot be a cover; a still can.
    expect(within(viewer).queryByRole('button', { name: 'Use as cover' })).not.toBeInTheDocument();
    await user.click(within(viewer).getByRole('button', { name: 'Previous file' }));
    expect(within(viewer).getByRole('heading', { name: still.attributes.name })).toBeInTheDocument();
    await user.click(within(viewer).getByRole('button', { name: 'Use as cover' }));
    expect(await screen.findByText('This still is now the project’s cover.')).toBeInTheDocument();
    expect(covers).toEqual([{ path: '/api/projects/p1/cover', body: { item_id: still.id } }]);

    await user.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("names a colourway's camera without the colourway", async () => {
    outputs = [roseStill, roseVideo];
    const user = userEvent.setup();
    await renderApp('/projects/files/output/p1', { user: buildUser() });
    await user.click(await screen.findByRole('button', { name: `Open ${roseStill.attributes.name}` }));

    const caption = within(await screen.findByRole('dialog')).getByTestId('preview-caption');
    expect(caption).toHaveTextContent(/^Front · 290 KB · /);
    await user.keyboard('{ArrowRight}');
    expect(caption).toHaveTextContent(/^Turntable · 1\.8 MB · /);
  });
});
