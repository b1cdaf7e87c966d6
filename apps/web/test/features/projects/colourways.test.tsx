import type { StudioFinish } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../fixtures';
import { renderApp } from '../../render-app';
import { json } from '../../responses';
import { buildItem } from '../files/fake-files-server';

const gold = (id: string, baseColor: [number, number, number]): StudioFinish => ({
  id,
  material: { baseColor, metalness: 1, roughness: 0.12 },
  colourable: false,
  categories: ['ring'],
});
const FINISHES: StudioFinish[] = [
  gold('yellow-gold', [1, 0.66, 0.24]),
  gold('white-gold', [0.86, 0.84, 0.79]),
  gold('rose-gold', [0.97, 0.62, 0.48]),
];
const paginate = { current_page: 1, per_page: 100, total: 1, last_page: 1 };
const ROSE = { id: 'rose-gold', name: 'Rose gold', finishes: { '*': { finish: 'rose-gold' } } };
const WHITE = { id: 'white-gold', name: 'White gold', finishes: { '*': { finish: 'white-gold' } } };
const project = (variants?: unknown[]) => ({
  id: 'p1',
  type: 'project',
  attributes: {
    name: 'Rings',
    description: null,
    user_id: 'u1',
    folder_id: 'f1',
    output_folder_id: 'o1',
    settings: { category_id: 'ring', ...(variants ? { variants } : {}) },
    inputs: 1,
    outputs: 0,
    renders: { queued: 0, rendering: 0, done: 0, failed: 0 },
    cover: null,
    outdated_inputs: 0,
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
  },
});
const scene = {
  category_id: 'ring',
  engine: 'draft',
  stills: 1,
  video: false,
  scene: {
    cameras: [{ name: 'front', azimuth: 0, elevation: 8, fov: 30 }],
    materials: { '*': FINISHES[0]!.material },
    background: { kind: 'gradient', top: '#ffffff', bottom: '#ece8e3' },
    resolution: { width: 512, height: 512 },
    turntable: { seconds: 8, fps: 30, elevation: 22 },
    margin: 0.14,
    groundShadow: true,
  },
};
const model = {
  ...buildItem('file', 'ring.stl', { mimetype: 'model/stl' }),
  meta: { kind: 'input', project_id: 'p1', render: null, model_version: null },
};

describe('colourways in the studio', { timeout: 30_000 }, () => {
  const posted: Array<{ path: string; body: Record<string, unknown> }> = [];
  let variants: unknown[] | undefined;
  // The customize page shows no model (jsdom has no WebGL for the viewer); the models page needs one to render.
  let inputs: unknown[] = [];
  beforeEach(() => {
    posted.length = 0;
    variants = undefined;
    inputs = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const { pathname } = new URL(String(input), 'http://atelier.test');
      if (init?.method === 'POST') posted.push({ path: pathname, body: JSON.parse(String(init.body)) });
      if (pathname === '/api/browse/projects/p1')
        return json({ data: [], meta: { paginate, root: project(variants) } });
      if (pathname === '/api/browse/projects/files/p1')
        return json({ data: inputs, meta: { paginate, root: project(variants) } });
      if (pathname === '/api/projects/p1/scene') return json({ data: scene });
      if (pathname === '/api/projects/categories')
        return json({ data: [{ id: 'ring', name: 'Ring', description: '' }] });
      if (pathname === '/api/projects/finishes') return json({ data: FINISHES });
      if (pathname === '/api/studio-settings') return json({ data: {} });
      if (pathname === '/api/update-project-settings') return json({ data: {} });
      if (pathname === '/api/generateAssets') return json({ data: [] }, 201);
      return json({ message: 'Not found', code: 'not_found' }, 404);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('adds colourways named after their finish and saves them with ids made from their names', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/customize/p1', { user: buildUser() });
    const editor = await screen.findByTestId('colourways');
    const add = within(editor).getByRole('button', { name: 'Add colourway' });
    await waitFor(() => expect(add).toBeEnabled());
    await user.click(add);
    await user.click(add);
    await user.click(add);
    const names = within(editor).getAllByRole('textbox', { name: /^Colourway \d$/ });
    expect(names.map((input) => (input as HTMLInputElement).value)).toEqual([
      'Yellow gold',
      'White gold',
      'Rose gold',
    ]);
    // Accents fold into the id; a name with no latin letters gets a numbered one; ids stay unique.
    await user.clear(names[1]!);
    await user.type(names[1]!, 'Or rosé');
    await user.selectOptions(within(editor).getAllByRole('combobox', { name: 'Finish' })[1]!, 'rose-gold');
    await user.clear(names[2]!);
    await user.type(names[2]!, '金');
    await user.click(within(editor).getByRole('button', { name: 'Save colourways' }));
    await waitFor(() =>
      expect(posted).toContainEqual({
        path: '/api/update-project-settings',
        body: expect.objectContaining({
          project_id: 'p1',
          updateKey: 'variants',
          updateValue: [
            { id: 'yellow-gold', name: 'Yellow gold', finishes: { '*': { finish: 'yellow-gold' } } },
            { id: 'or-rose', name: 'Or rosé', finishes: { '*': { finish: 'rose-gold' } } },
            { id: 'colourway-3', name: '金', finishes: { '*': { finish: 'rose-gold' } } },
          ],
        }),
      }),
    );
  });

  it('renders the colourways left picked, and the project’s own finish when none is', async () => {
    variants = [ROSE, WHITE];
    inputs = [model];
    const user = userEvent.setup();
    await renderApp('/projects/files/p1', { user: buildUser() });
    const picker = await screen.findByRole('group', { name: 'Colourways to render' });
    await user.click(within(picker).getByRole('button', { name: 'Rose gold' }));
    expect(within(picker).getByRole('button', { name: 'Rose gold' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    const renderAll = screen.getByRole('button', { name: 'Render all' });
    await waitFor(() => expect(renderAll).toBeEnabled());
    await user.click(renderAll);
    await user.click(within(picker).getByRole('button', { name: 'White gold' }));
    await user.click(renderAll);
    await waitFor(() =>
      expect(posted.filter((p) => p.path === '/api/generateAssets').map((p) => p.body.variants)).toEqual([
        ['white-gold'],
        [],
      ]),
    );
  });
});
