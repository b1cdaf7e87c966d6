import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '../support/test';
import { ringMesh } from '../../packages/render/test/fixtures/shapes';
import { binaryStl } from '../../packages/render/test/fixtures/write-formats';
import { call, ensureInstalled, registerAndSignIn, renderProject } from '../support/api';
import { snapEverywhere } from '../support/snap';

const desktop = mkdtempSync(join(tmpdir(), 'atelier-view-'));
const stlPath = join(desktop, 'signet-ring.stl');
writeFileSync(stlPath, binaryStl(ringMesh({ segments: 48, sides: 16 })));

const sliderValue = (page: Page, label: string) => page.getByLabel(label, { exact: false }).inputValue();

async function cameraSettings(page: Page, projectId: string) {
  const answer = await call(page, 'get', `/api/browse/projects/${projectId}`);
  return (await answer.json()).meta?.root?.attributes?.settings?.cameras ?? null;
}

test('the 3D view and the camera sliders move together; outputs open in the previewer; the card shows a cover', async ({
  page,
}, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Vera View',
    email: `vera-${Date.now()}@atelier.test`,
    password: 'vera-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', {
    project_name: 'Signet rings',
    description: 'A ring for the catalogue',
  });
  const projectId: string = (await created.json()).id;
  const empty = await call(page, 'post', '/api/create-project', { project_name: 'Next season' });
  expect(empty.status()).toBe(201);

  await test.step('a model is uploaded', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await page.getByTestId('project-upload-input').setInputFiles([stlPath]);
    await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
  });

  await test.step('dragging the view turns the camera sliders, the wheel zooms, and both are saved', async () => {
    await page.goto(`/projects/files/customize/${projectId}`);
    const view = page.getByTestId('model-viewer');
    await expect(view.locator('canvas')).toBeVisible({ timeout: 30_000 });
    await expect(view).toHaveClass(/cursor-grab/, { timeout: 30_000 });
    const around = Number(await sliderValue(page, 'Around'));
    const height = Number(await sliderValue(page, 'Height'));
    const box = (await view.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number(await sliderValue(page, 'Around'))).not.toBe(around);
    await expect.poll(async () => Number(await sliderValue(page, 'Height'))).toBeGreaterThan(height);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(() => sliderValue(page, 'Zoom')).not.toBe('100');
    // What the sliders read, once the gestures have settled, is what the renders get.
    await expect
      .poll(async () => {
        const [first] = (await cameraSettings(page, projectId)) ?? [];
        const saved = first ? [Math.round(first.azimuth), Math.round((first.zoom ?? 1) * 100)] : null;
        const shown = [Number(await sliderValue(page, 'Around')), Number(await sliderValue(page, 'Zoom'))];
        return JSON.stringify(saved) === JSON.stringify(shown) && shown[1] !== 100;
      })
      .toBe(true);
    const turned = Number(await sliderValue(page, 'Around'));
    // Moving a slider moves the view.
    const before = await view.locator('canvas').screenshot();
    await page.getByLabel('Around').fill(String(turned > 0 ? turned - 60 : turned + 60));
    // The software GPU of the test browser draws slowly on a busy machine: a new picture can take a while.
    await expect
      .poll(async () => (await view.locator('canvas').screenshot()).equals(before), { timeout: 30_000 })
      .toBe(false);
    await snapEverywhere(page, info, '01-customise-view');
  });

  await test.step('two small draft stills are rendered', async () => {
    await renderProject(page, projectId, {
      settings: { engine: 'draft', resolution: { width: 96, height: 96 }, stills: 2, video: false },
      category: 'ring',
      outputs: 2,
    });
  });

  await test.step('an output opens in the previewer, steps with the arrow key, becomes the cover and closes', async () => {
    await page.goto(`/projects/files/output/${projectId}`);
    await page
      .getByRole('button', { name: /^Open signet-ring-/ })
      .first()
      .click();
    const viewer = page.getByRole('dialog');
    await expect(viewer.getByTestId('preview-caption')).toContainText('Draft engine');
    const first = await viewer.getByRole('heading').textContent();
    await page.keyboard.press('ArrowRight');
    await expect(viewer.getByRole('heading')).not.toHaveText(first!);
    await expect(viewer.getByRole('button', { name: 'Previous file' })).toBeVisible();
    await viewer.getByRole('button', { name: 'Use as cover' }).click();
    await expect(page.getByText('This still is now the project’s cover.')).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Cover' })).toHaveAttribute('aria-pressed', 'true');
    await snapEverywhere(page, info, '02-output-previewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect(viewer).toBeHidden();
  });

  await test.step('the project list shows the cover, and a tidy placeholder for a project without renders', async () => {
    await page.goto('/projects');
    const cover = page.getByTestId('project-cover');
    await expect(cover).toHaveCount(1);
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByTestId('project-cover-placeholder')).toHaveCount(1);
    await snapEverywhere(page, info, '03-project-covers');
  });
});
