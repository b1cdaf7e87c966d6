import type {
  ProjectAssetPayload,
  ProjectResource,
  RenderJobResource,
  RenderQueueEntry,
} from '@atelier/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { projectKeys } from '../../../src/features/projects/projects-api';
import { json } from '../../responses';

// The realtime connection is replaced by a hand that delivers the events a test chooses.
const listeners = vi.hoisted(() => new Map<string, Set<(payload: unknown) => void>>());
vi.mock('../../../src/lib/realtime', () => ({
  subscribeRealtime: (event: string, handler: (payload: unknown) => void) => {
    const handlers = listeners.get(event) ?? new Set();
    handlers.add(handler);
    listeners.set(event, handlers);
    return () => handlers.delete(handler);
  },
}));
const deliver = (event: z.infer<typeof ProjectAssetPayload>) =>
  act(() => listeners.get('project.asset')?.forEach((handler) => handler(event)));

function project(renders: ProjectResource['attributes']['renders']): ProjectResource {
  return {
    id: 'p1',
    type: 'project',
    attributes: {
      name: 'Rings',
      description: null,
      user_id: 'u1',
      folder_id: 'f1',
      output_folder_id: null,
      settings: {} as ProjectResource['attributes']['settings'],
      inputs: 3,
      outputs: 2,
      renders,
      cover: null,
      outdated_inputs: 0,
      created_at: '2026-05-01T10:00:00.000Z',
      updated_at: '2026-05-01T10:00:00.000Z',
    },
  };
}

function render(status: RenderJobResource['attributes']['status'], progress: number): RenderJobResource {
  return {
    id: 'r1',
    type: 'job',
    attributes: {
      name: 'projects.render',
      project_id: 'p1',
      input_id: 'i1',
      input_name: 'ring.stl',
      category_id: 'jewellery',
      engine: 'draft',
      status,
      progress,
      error: null,
      attempts: 1,
      created_at: '2026-05-01T10:00:00.000Z',
      updated_at: '2026-05-01T10:00:00.000Z',
    },
  };
}

/** The studio's list, queue and project calls, answering what the test has set. */
function studioServer() {
  const state = {
    projects: [project({ queued: 1, rendering: 1, done: 1, failed: 0 })],
    queue: [] as RenderQueueEntry[],
    renders: [] as RenderJobResource[],
  };
  const paginate = { current_page: 1, per_page: 100, total: 1, last_page: 1 };
  const fetch = async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input), 'http://atelier.test');
    if (pathname === '/api/browse/projects/all')
      return json({
        data: state.projects,
        meta: { root: null, paginate },
      });
    if (pathname === '/api/projects/render-queue') return json({ data: state.queue });
    if (pathname === '/api/browse/projects/p1')
      return json({ data: state.renders, meta: { root: state.projects[0], paginate } });
    if (pathname === '/api/browse/projects/files/p1')
      return json({ data: [], meta: { root: state.projects[0], paginate } });
    return new Response(JSON.stringify({ message: 'Not found', code: 'not_found' }), { status: 404 });
  };
  return { state, fetch };
}

const underWay: RenderQueueEntry = {
  project_id: 'p1',
  project_name: 'Rings',
  total: 3,
  ended: 1,
  rendering: 1,
  queued: 1,
  position: 2,
  estimate_seconds: 100,
};

describe('renders under way', () => {
  let server: ReturnType<typeof studioServer>;
  beforeEach(() => {
    server = studioServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows on the project card where the batch stands and about how long it has left', async () => {
    server.state.queue = [underWay];
    await renderApp('/projects', { user: buildUser() });
    expect(await screen.findByTestId('render-queue-line')).toHaveTextContent(
      'Rendering 2 of 3 · about 2 minutes',
    );
  });

  it('says on a waiting project how many renders are ahead of it', async () => {
    server.state.queue = [
      { ...underWay, rendering: 0, ended: 0, queued: 3, position: 4, estimate_seconds: 30 },
    ];
    await renderApp('/projects', { user: buildUser() });
    expect(await screen.findByTestId('render-queue-line')).toHaveTextContent(
      'Queued, 3 renders ahead · less than a minute',
    );
  });

  it('marks the studio in the sidebar (and the phone menu button) while renders run, on any page, and drops the mark when they end', async () => {
    server.state.queue = [underWay];
    await renderApp('/user/profile', { user: buildUser() });
    const mark = await screen.findByRole('status', { name: '1 project rendering' });
    expect(mark.closest('a')).toHaveAttribute('href', '/projects/create');
    // On a phone the sidebar is in the drawer: its menu button carries a dot meanwhile.
    const menu = screen.getByRole('button', { name: 'Open the menu' });
    expect(menu.querySelector('.animate-ping')).not.toBeNull();

    server.state.queue = [];
    await deliver({ job_id: 'r2', project_id: 'p1', status: 'done', progress: 100 });
    await waitFor(() =>
      expect(screen.queryByRole('status', { name: '1 project rendering' })).not.toBeInTheDocument(),
    );
    expect(menu.querySelector('.animate-ping')).toBeNull();
  });

  it('shows a render that ended while the person was elsewhere as ended, not at its last progress', async () => {
    server.state.renders = [render('rendering', 10)];
    const { router, queryClient } = await renderApp('/projects/files/output/p1', { user: buildUser() });
    expect(await screen.findByTestId('running-render')).toBeInTheDocument();
    await deliver({ job_id: 'r1', project_id: 'p1', status: 'rendering', progress: 40 });

    // Away from the studio no screen listens: the render's end reaches no one but the server.
    await act(() => router.navigate('/user/profile'));
    server.state.renders = [render('done', 100)];
    await queryClient.invalidateQueries({ queryKey: projectKeys.project('p1') });

    await act(() => router.navigate('/projects/files/output/p1'));
    await waitFor(() =>
      expect(
        queryClient.getQueryData<{ data: RenderJobResource[] }>(projectKeys.project('p1'))?.data[0]
          ?.attributes.status,
      ).toBe('done'),
    );
    expect(screen.getByRole('tablist', { name: 'Show' })).toBeInTheDocument();
    expect(screen.queryByTestId('running-render')).not.toBeInTheDocument();
  });
});
