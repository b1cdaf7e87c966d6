import type { ProjectFileResource } from '@atelier/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProject, buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';
import { buildItem } from '../files/fake-files-server';

const paginate = { current_page: 1, per_page: 100, total: 1, last_page: 1 };
const project = buildProject();
const model: ProjectFileResource = {
  ...buildItem('file', 'bracket.stl', { mimetype: 'model/stl', filesize: 2000 }),
  meta: { kind: 'input', project_id: 'p1', render: null, model_version: null },
};

/** Addresses that answer 500 until the test lets them through. */
let failing: Set<string>;

beforeEach(() => {
  failing = new Set();
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input), 'http://atelier.test');
    if (failing.has(pathname)) return json({ message: 'Server error', code: 'internal' }, 500);
    if (pathname === '/api/browse/projects/all') return json({ data: [project], meta: { paginate } });
    if (pathname === '/api/projects/render-queue') return json({ data: [] });
    if (pathname === '/api/browse/projects/p1') return json({ data: [], meta: { paginate, root: project } });
    if (pathname === '/api/browse/projects/files/p1')
      return json({ data: [model], meta: { paginate, root: project } });
    if (pathname === '/api/browse/projects/gallery/all')
      return json({ data: [], meta: { paginate, root: null } });
    if (pathname === '/api/projects/categories')
      return json({ data: [{ id: 'mechanical', name: 'Mechanical', description: '' }] });
    return json({ message: 'Not found', code: 'not_found' }, 404);
  });
});

describe('a Studio list that fails to load', { timeout: 30_000 }, () => {
  it('says so on /projects instead of "No projects yet", and loads again on Try again', async () => {
    failing.add('/api/browse/projects/all');
    await renderApp('/projects', { user: buildUser() });
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();
    expect(screen.queryByText('No projects yet')).not.toBeInTheDocument();

    failing.clear();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Brackets' })).toBeInTheDocument();
  });

  it('says so on a project\'s models instead of "No models yet", and loads again on Try again', async () => {
    failing.add('/api/browse/projects/files/p1');
    await renderApp('/projects/files/p1', { user: buildUser() });
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();
    expect(screen.queryByText('No models yet')).not.toBeInTheDocument();

    failing.clear();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('bracket.stl')).toBeInTheDocument();
  });

  it("says so on a project's models when the project itself fails to load", async () => {
    failing.add('/api/browse/projects/p1');
    await renderApp('/projects/files/p1', { user: buildUser() });
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();

    failing.clear();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Brackets' })).toBeInTheDocument();
  });

  it('says so on the gallery instead of "The gallery is empty", and loads again on Try again', async () => {
    failing.add('/api/browse/projects/gallery/all');
    await renderApp('/gallery/files', { user: buildUser() });
    expect(await screen.findByText('Whooops, something went wrong :(')).toBeInTheDocument();

    failing.clear();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The gallery is empty')).toBeInTheDocument();
  });
});
