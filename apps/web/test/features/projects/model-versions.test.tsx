import type { ModelVersion, ProjectFileResource, RenderJobResource } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProject, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';
import { buildItem } from '../files/fake-files-server';

const paginate = { current_page: 1, per_page: 100, total: 3, last_page: 1 };
const job: RenderJobResource = {
  id: 'j1',
  type: 'job',
  attributes: {
    name: 'projects.render',
    project_id: 'p1',
    input_id: 'i1',
    input_name: 'bracket.stl',
    category_id: 'mechanical',
    engine: 'draft',
    status: 'done',
    progress: 100,
    error: null,
    attempts: 1,
    created_at: '2026-12-04T15:00:00.000Z',
    updated_at: '2026-12-04T15:01:00.000Z',
  },
};
const output = (name: string, version: ModelVersion | null): ProjectFileResource => ({
  ...buildItem('file', name, { mimetype: 'image/png', filesize: 1000 }),
  meta: { kind: 'output', project_id: 'p1', render: job, model_version: version },
});
const fromCurrent = output('bracket-isometric (1).png', {
  id: 'c2',
  created_at: '2026-12-04T14:50:00.000Z',
  current: true,
});
const fromEarlier = output('bracket-isometric.png', {
  id: 'c1',
  created_at: '2026-12-04T14:02:00.000Z',
  current: false,
});
const fromGone = output('bracket-front.png', { id: 'c0', created_at: null, current: false });
const model: ProjectFileResource = {
  ...buildItem('file', 'bracket.stl', { mimetype: 'model/stl', filesize: 2000 }),
  meta: { kind: 'input', project_id: 'p1', render: job, model_version: fromEarlier.meta.model_version },
};

let outdated = 1;
let rerenders: unknown[] = [];
const project = () =>
  buildProject({
    outputs: 3,
    renders: { queued: 0, rendering: 0, done: 1, failed: 0 },
    outdated_inputs: outdated,
  });

describe("a project's model versions", { timeout: 30_000 }, () => {
  beforeEach(() => {
    outdated = 1;
    rerenders = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://atelier.test');
      if (url.pathname === '/api/projects/p1/rerender' && init?.method === 'POST') {
        rerenders.push(JSON.parse(String(init.body)));
        outdated = 0;
        return json(
          { data: [{ ...job, id: 'j2', attributes: { ...job.attributes, status: 'queued' } }] },
          201,
        );
      }
      if (url.pathname === '/api/browse/projects/all')
        return json({
          data: [
            project(),
            {
              ...project(),
              id: 'p2',
              attributes: { ...project().attributes, name: 'Lamps', outdated_inputs: 0 },
            },
          ],
          meta: { paginate },
        });
      if (url.pathname === '/api/projects/render-queue') return json({ data: [] });
      if (url.pathname === '/api/browse/projects/p1')
        return json({ data: [job], meta: { paginate, root: project() } });
      if (url.pathname === '/api/browse/projects/files/p1')
        return url.searchParams.get('type') === 'input'
          ? json({ data: [model], meta: { paginate, root: project() } })
          : json({ data: [fromCurrent, fromEarlier, fromGone], meta: { paginate, root: project() } });
      if (url.pathname === '/api/projects/categories')
        return json({ data: [{ id: 'mechanical', name: 'Mechanical', description: '' }] });
      return json({ message: 'Not found', code: 'not_found' }, 404);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('each output says which version of the model it came from, in the card and in the previewer', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/output/p1', { user: buildUser() });
    const cards = await screen.findAllByTestId('output-card');
    const notes = cards.map((card) => within(card).getByTestId('model-version').textContent);
    expect(notes[0]).toBe('From the current version');
    expect(notes[1]).toMatch(/^From the version of Dec 4, \d{1,2}:02\s?(AM|PM)?$/);
    expect(notes[2]).toBe('From an earlier version, no longer kept');

    await user.click(screen.getByRole('button', { name: `Open ${fromEarlier.attributes.name}` }));
    const caption = within(await screen.findByRole('dialog')).getByTestId('preview-caption');
    expect(caption).toHaveTextContent(/ · From the version of Dec 4, /);
  });

  it('offers one click to re-render while a model is newer than its outputs, then the offer goes', async () => {
    const user = userEvent.setup();
    const signedIn = buildUser();
    await renderApp('/projects/files/output/p1', { user: signedIn });
    const banner = await screen.findByTestId('outdated-models');
    expect(banner).toHaveTextContent('One model has a new version');
    await user.click(within(banner).getByRole('button', { name: 'Re-render' }));
    expect(
      await screen.findByText('One render is queued. Its progress shows here as it runs.'),
    ).toBeInTheDocument();
    expect(rerenders).toEqual([{ user_id: signedIn.data.id }]);
    await waitFor(() => expect(screen.queryByTestId('outdated-models')).not.toBeInTheDocument());
  });

  it("a project's card on the list says when a model has a new version, and leads to its Re-render", async () => {
    const user = userEvent.setup();
    await renderApp('/projects', { user: buildUser() });
    const badges = await screen.findAllByTestId('project-outdated');
    expect(badges).toHaveLength(1);
    expect(badges[0]).toHaveTextContent('New model version');
    expect(badges[0]).toHaveAttribute('href', '/projects/files/p1');
    await user.click(badges[0]!);
    expect(await screen.findByTestId('outdated-models')).toHaveTextContent('Re-render');
  });

  it("the project's models say when their outputs are of an earlier version", async () => {
    await renderApp('/projects/files/p1', { user: buildUser() });
    const row = await screen.findByTestId('project-input');
    expect(within(row).getByTestId('input-outdated')).toHaveTextContent(
      'Its outputs are of an earlier version',
    );
    expect(screen.getByTestId('outdated-models')).toHaveTextContent('Re-render');
  });
});
