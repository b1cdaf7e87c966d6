import type { StudioFinish } from '@atelier/contracts';
import { en } from '@atelier/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TFunction } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cameraLabel, finishOf, hexToLinear, linearToHex } from '../../../src/features/projects/studio-names';
import { buildUser } from '../../fixtures';
import { createTestI18n, renderApp } from '../../render-app';
import { json } from '../../responses';
import { buildItem } from '../files/fake-files-server';

const finish = (
  id: string,
  material: StudioFinish['material'],
  colourable: boolean,
  categories: string[],
) => ({
  id,
  material,
  colourable,
  categories,
});
const FINISHES: StudioFinish[] = [
  finish('yellow-gold', { baseColor: [1, 0.66, 0.24], metalness: 1, roughness: 0.12 }, false, ['ring']),
  finish('plastic-matte', { baseColor: [0.42, 0.45, 0.5], metalness: 0, roughness: 0.7 }, true, [
    'product',
    'mechanical',
  ]),
  finish('rubber', { baseColor: [0.03, 0.03, 0.03], metalness: 0, roughness: 0.92 }, true, ['product']),
  finish('brushed-steel', { baseColor: [0.56, 0.57, 0.58], metalness: 1, roughness: 0.32 }, false, [
    'product',
    'mechanical',
  ]),
];

describe('studio names', () => {
  it('reads camera slugs as words: translated, numbered extra angles, own names spelled out, older names as today’s', async () => {
    const i18n = await createTestI18n(en);
    const t = i18n.t.bind(i18n) as TFunction;
    expect(cameraLabel(t, 'three-quarter-back')).toBe('Three-quarter back');
    expect(cameraLabel(t, 'angle-7')).toBe('Angle 7');
    expect(cameraLabel(t, 'my-close-up')).toBe('My close up');
    // Saved settings and earlier outputs (ring-ring-still-05-back-three-quarter.png) read as today's.
    expect(cameraLabel(t, 'back-three-quarter')).toBe('Three-quarter back');
    expect(cameraLabel(t, 'ring-still-01-hero')).toBe('Three-quarter front');
    expect(cameraLabel(t, 'ring-turntable')).toBe('Turntable');
  });

  it('tells a finish by its surface, any colour passing only for a colourable one', () => {
    const red = { baseColor: [0.8, 0.02, 0.02] as [number, number, number], metalness: 0, roughness: 0.7 };
    expect(finishOf(red, FINISHES)?.id).toBe('plastic-matte');
    expect(finishOf({ ...FINISHES[3]!.material, baseColor: [0.8, 0.02, 0.02] }, FINISHES)).toBeUndefined();
    expect(finishOf(undefined, FINISHES)).toBeUndefined();
    expect(linearToHex(hexToLinear('#c81e1e'))).toBe('#c81e1e');
  });
});

const paginate = { current_page: 1, per_page: 100, total: 1, last_page: 1 };
const project = {
  id: 'p1',
  type: 'project',
  attributes: {
    name: 'Kettle',
    description: null,
    user_id: 'u1',
    folder_id: 'project-folder',
    output_folder_id: 'o1',
    settings: { category_id: 'product' },
    inputs: 0,
    outputs: 0,
    renders: { queued: 0, rendering: 0, done: 0, failed: 0 },
    cover: null,
    outdated_inputs: 0,
    created_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
  },
};
const scene = {
  category_id: 'product',
  engine: 'draft',
  stills: 6,
  video: true,
  scene: {
    cameras: [
      { name: 'three-quarter-front', azimuth: 35, elevation: 22, fov: 28 },
      { name: 'three-quarter-back', azimuth: 215, elevation: 22, fov: 28 },
    ],
    materials: { '*': { baseColor: [0.05, 0.2, 0.55], metalness: 0, roughness: 0.18, clearcoat: 1 } },
    background: { kind: 'gradient', top: '#f4f5f7', bottom: '#dfe2e6' },
    resolution: { width: 2048, height: 2048 },
    turntable: { seconds: 8, fps: 30, elevation: 20 },
    margin: 0.12,
    groundShadow: true,
  },
};
const parts = buildItem('folder', 'Parts');
const bracket = buildItem('file', 'bracket.stl', { mimetype: 'model/stl' });
const notes = buildItem('file', 'notes.txt');
const projectFolder = { ...buildItem('folder', 'Kettle'), id: 'project-folder' };
const gear = buildItem('file', 'gear.step', { parent_id: parts.id });

describe('the studio fits the project', { timeout: 30_000 }, () => {
  const added: unknown[] = [];
  const settings: unknown[] = [];
  beforeEach(() => {
    added.length = 0;
    settings.length = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const { pathname } = new URL(String(input), 'http://atelier.test');
      const list = (data: unknown[]) => json({ data, meta: { paginate, root: null } });
      if (pathname === '/api/browse/projects/p1')
        return json({ data: [], meta: { paginate, root: project } });
      if (pathname === '/api/browse/projects/files/p1')
        return json({ data: [], meta: { paginate, root: project } });
      if (pathname === '/api/projects/p1/scene') return json({ data: scene });
      if (pathname === '/api/projects/categories')
        return json({
          data: [
            { id: 'product', name: 'Product', description: '' },
            { id: 'ring', name: 'Ring', description: '' },
          ],
        });
      if (pathname === '/api/projects/finishes') return json({ data: FINISHES });
      if (pathname === '/api/studio-settings') return json({ data: { rerender_on_change: true } });
      if (pathname === '/api/update-project-settings' && init?.method === 'POST') {
        settings.push(JSON.parse(String(init.body)));
        return json({ data: {} });
      }
      if (pathname === '/api/browse/folders/all') return list([parts, projectFolder, bracket, notes]);
      if (pathname === `/api/browse/folders/${parts.id}`) return list([gear]);
      if (pathname === '/api/projects/p1/inputs' && init?.method === 'POST') {
        added.push(JSON.parse(String(init.body)));
        return json({ data: [bracket, gear] }, 201);
      }
      return json({ message: 'Not found', code: 'not_found' }, 404);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('offers the finishes of the project’s category, and names the cameras as people do', async () => {
    await renderApp('/projects/files/customize/p1', { user: buildUser() });
    const finishes = await screen.findByRole('group', { name: 'Finish' });
    await within(finishes).findByRole('button', { name: 'Matte plastic' });
    expect(within(finishes).getByRole('button', { name: 'Rubber' })).toBeInTheDocument();
    expect(within(finishes).queryByRole('button', { name: 'Yellow gold' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Three-quarter back' })).toBeInTheDocument();
  });

  it('re-renders a changed model as the studio default says until the project says otherwise', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/customize/p1', { user: buildUser() });
    const automatic = await screen.findByRole('switch', { name: /^Re-render when a model changes/ });
    await waitFor(() => expect(automatic).toBeChecked());
    await user.click(automatic);
    expect(automatic).not.toBeChecked();
    await waitFor(() =>
      expect(settings).toContainEqual(
        expect.objectContaining({ project_id: 'p1', updateKey: 'rerender_on_change', updateValue: false }),
      ),
    );
  });

  it('adds models picked from My files, walking into folders and leaving other files and the project out', async () => {
    const user = userEvent.setup();
    await renderApp('/projects/files/p1', { user: buildUser() });
    await user.click(await screen.findByRole('button', { name: 'Add from My files' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('checkbox', { name: /bracket\.stl/ }));
    expect(within(dialog).queryByText('notes.txt')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Kettle')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /Parts/ }));
    await user.click(await within(dialog).findByRole('checkbox', { name: /gear\.step/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 models' }));
    await waitFor(() => expect(added).toEqual([{ items: [bracket.id, gear.id] }]));
    expect(await screen.findByText('2 models were added to the project.')).toBeInTheDocument();
  });

  it('tells a person who may not upload now that copies are held back too, and sends nothing', async () => {
    const user = userEvent.setup();
    const restricted = buildUser();
    restricted.meta.restrictions = { ...restricted.meta.restrictions, canUpload: false };
    await renderApp('/projects/files/p1', { user: restricted });
    await user.click(await screen.findByRole('button', { name: 'Add from My files' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('checkbox', { name: /bracket\.stl/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add model' }));
    expect(await screen.findByText('Uploading is temporarily disabled')).toBeInTheDocument();
    expect(added).toEqual([]);
  });
});
