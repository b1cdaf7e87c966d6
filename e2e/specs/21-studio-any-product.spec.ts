import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '../support/test';
import { boxMesh, ringMesh } from '../../packages/render/test/fixtures/shapes';
import { binaryStl } from '../../packages/render/test/fixtures/write-formats';
import { call, ensureInstalled, registerAndSignIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

const desktop = mkdtempSync(join(tmpdir(), 'atelier-product-'));
const lampPath = join(desktop, 'desk-lamp.stl');
const bracketPath = join(desktop, 'bracket.stl');
writeFileSync(lampPath, binaryStl(ringMesh({ segments: 48, sides: 16 })));
writeFileSync(bracketPath, binaryStl(boxMesh([30, 12, 6])));

async function itemAction(page: Page, name: string, action: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

async function outputNames(page: Page, projectId: string): Promise<string[]> {
  const answer = await call(page, 'get', `/api/browse/projects/files/${projectId}?type=output`);
  return ((await answer.json()).data ?? []).map((f: { attributes: { name: string } }) => f.attributes.name);
}

test('a model in Files opens as a Product project, renders with readable names, and a folder renders from Files', async ({
  page,
}, info) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Paula Product',
    email: `paula-${Date.now()}@atelier.test`,
    password: 'paula-password-1',
  });
  // Small draft renders: the journey is about the way through, not the pictures.
  for (const [updateKey, updateValue] of Object.entries({
    engine: 'draft',
    resolution: { width: 96, height: 96 },
    stills: 2,
    video: false,
  }))
    expect((await call(page, 'post', '/api/studio-settings', { updateKey, updateValue })).status()).toBe(200);
  const catalogue = (await (await call(page, 'post', '/api/create-folder', { name: 'Catalogue' })).json())
    .data;
  await page.goto('/platform/files');
  await page.getByRole('button', { name: 'Got it' }).click();

  await test.step('models are uploaded in Files, and a model opens in the previewer in 3D', async () => {
    await page.goto('/platform/files');
    await page.getByTestId('upload-files-input').setInputFiles(lampPath);
    await expect(page.getByTestId('item-row').filter({ hasText: 'desk-lamp.stl' })).toBeVisible({
      timeout: 60_000,
    });
    await page.goto(`/platform/files/${catalogue.id}`);
    await page.getByTestId('upload-files-input').setInputFiles(bracketPath);
    await expect(page.getByTestId('item-row').filter({ hasText: 'bracket.stl' })).toBeVisible({
      timeout: 60_000,
    });
    await page.goto('/platform/files');
    await itemAction(page, 'desk-lamp.stl', 'Preview');
    const viewer = page.getByRole('dialog');
    await expect(viewer.locator('canvas')).toBeVisible({ timeout: 30_000 });
    await expect(viewer.getByRole('button', { name: 'Open as project' })).toBeVisible();
    await snapEverywhere(page, info, '01-model-previewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
  });

  let projectId = '';
  await test.step('"Open as project" makes a Product project and offers Product finishes', async () => {
    await itemAction(page, 'desk-lamp.stl', 'Open as project');
    await expect(page).toHaveURL(/\/projects\/files\/customize\/[0-9a-f-]{36}$/);
    projectId = page.url().split('/').pop()!;
    await expect(page.getByLabel('Render category')).toHaveValue('product', { timeout: 30_000 });
    const finishes = page.getByRole('group', { name: 'Finish' });
    for (const name of ['Matte plastic', 'Glossy plastic', 'Painted metal', 'Rubber', 'Glass', 'Wood'])
      await expect(finishes.getByRole('button', { name })).toBeVisible();
    await expect(finishes.getByRole('button', { name: 'Yellow gold' })).toHaveCount(0);
    await finishes.getByRole('button', { name: 'Matte plastic' }).click();
    await expect(page.getByLabel('Finish colour')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Three-quarter back' })).toBeVisible();
    await expect(page.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await snapEverywhere(page, info, '02-product-finishes');
  });

  await test.step('the renders are named by the model and the camera', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await expect(page.getByTestId('project-input')).toHaveCount(1);
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect.poll(() => outputNames(page, projectId), { timeout: 180_000 }).toHaveLength(2);
    expect((await outputNames(page, projectId)).sort()).toEqual([
      'desk-lamp-front.png',
      'desk-lamp-three-quarter-front.png',
    ]);
    await page.goto(`/projects/files/output/${projectId}`);
    await expect(page.getByText('desk-lamp-three-quarter-front.png')).toBeVisible();
    await snapEverywhere(page, info, '03-outputs-named');
  });

  await test.step('"Add from My files" copies a stored model into the project', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await page.getByRole('button', { name: 'Add from My files' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('desk-lamp.stl')).toBeVisible();
    await dialog.getByRole('button', { name: /Catalogue/ }).click();
    await dialog.getByRole('checkbox', { name: /bracket\.stl/ }).click();
    await snapEverywhere(page, info, '04-add-from-files');
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await expect(page.getByText('The model was added to the project.')).toBeVisible();
    await expect(page.getByTestId('project-input')).toHaveCount(2);
  });

  await test.step('a folder renders from Files, its progress shown as a project’s is', async () => {
    await page.goto('/platform/files');
    await itemAction(page, 'Catalogue', 'Generate renders…');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Render category')).toHaveValue('product', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Start rendering' }).click();
    const render = dialog.getByTestId('folder-render');
    await expect(render).toContainText('bracket.stl');
    await expect(render).toContainText(/Queued|Rendering|Done/);
    await expect(render).toContainText('Done', { timeout: 180_000 });
    await snapEverywhere(page, info, '05-folder-renders');
    await dialog.getByRole('link', { name: 'Open the project' }).click();
    await expect(page).toHaveURL(/\/projects\/files\/output\/[0-9a-f-]{36}$/);
    await expect(page.getByText('bracket-three-quarter-front.png')).toBeVisible();
  });
});
