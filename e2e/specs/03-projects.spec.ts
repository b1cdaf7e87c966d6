import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ringMesh } from '../../packages/render/test/fixtures/shapes';
import { stepBox } from '../../packages/render/test/fixtures/write-cad';
import { binaryStl } from '../../packages/render/test/fixtures/write-formats';
import { call, ensureInstalled, registerAndSignIn } from '../support/api';
import { snap } from '../support/snap';
import { zipDigests } from '../support/zip';

const desktop = mkdtempSync(join(tmpdir(), 'atelier-models-'));
const stepPath = join(desktop, 'gearbox-housing.step');
const stlPath = join(desktop, 'signet-ring.stl');
writeFileSync(stepPath, stepBox([40, 24, 16], [0.8, 0.3, 0.1]));
writeFileSync(stlPath, binaryStl(ringMesh({ segments: 96, sides: 24 })));

test('a CAD file becomes stills and a turntable, live, then lands in the gallery', async ({ page }, info) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Priya Product',
    email: `priya-${Date.now()}@atelier.test`,
    password: 'priya-password-1',
  });

  await test.step('a project is created', async () => {
    await page.goto('/projects');
    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByLabel('Project name').fill('Spring collection');
    await page.getByLabel('Description').fill('Rings and a housing for the catalogue');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page).toHaveURL(/\/projects\/files\/[0-9a-f-]{36}$/);
  });
  const projectId = page.url().split('/').pop()!;

  await test.step('a STEP file and an STL are uploaded as models', async () => {
    await page.getByTestId('project-upload-input').setInputFiles([stepPath, stlPath]);
    await expect(page.getByTestId('project-input')).toHaveCount(2, { timeout: 60_000 });
    await expect(page.getByTestId('project-input').filter({ hasText: 'gearbox-housing.step' })).toBeVisible();
    await snap(page, info, '01-models');
  });

  await test.step('the look is customised with the live viewer showing the framing', async () => {
    await page.goto(`/projects/files/customize/${projectId}`);
    await expect(page.locator('canvas').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/the dashed frame is the/)).toBeVisible();
    // A new project is a Product; rings offer the precious metals.
    await page.getByLabel('Render category').selectOption('ring');
    await page.getByRole('button', { name: 'Rose gold' }).click();
    await page.getByLabel('Resolution').selectOption('1024x1024');
    await page.getByLabel('Stills per model').fill('2');
    await page.getByLabel('Video length').fill('2');
    // Settings are saved after the 150 ms debounce; wait until the server has them.
    await expect
      .poll(
        async () =>
          (await (await call(page, 'get', `/api/browse/projects/${projectId}`)).json()).meta?.root?.attributes
            ?.settings?.stills ?? null,
        { timeout: 10_000 },
      )
      .toBe(2);
    await snap(page, info, '02-customise');
  });

  await test.step('rendering is started and progress arrives in realtime', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect(
      page.getByText('2 renders are queued. Their progress shows here as they run.'),
    ).toBeVisible();
    await expect(page.getByRole('progressbar').first()).toBeVisible({ timeout: 120_000 });
    await snap(page, info, '03-rendering');
  });

  await test.step('on another page, the list and the sidebar say where the renders stand, and a notification says when they are done', async () => {
    await page.goto('/projects');
    await expect(page.getByTestId('render-queue-line')).toContainText(/Rendering \d of 2|Queued/);
    await expect(page.getByRole('status', { name: '1 project rendering' })).toBeVisible();
    // Watched from now on: the renders may end while the page is being captured.
    const arrived = expect(page.getByRole('status').filter({ hasText: 'Renders ready' })).toContainText(
      'Every render of “Spring collection” has finished.',
      { timeout: 300_000 },
    );
    await snap(page, info, '04-renders-under-way');
    await arrived;
    await expect(page.getByRole('status', { name: '1 project rendering' })).toBeHidden();
    await snap(page, info, '05-renders-ready');
    // It stays in the notification centre, whose button opens the outputs.
    await page.getByRole('button', { name: /^Notifications, [1-9]\d* unread$/ }).click();
    await expect(page.getByTestId('notification').filter({ hasText: 'Renders ready' })).toBeVisible();
    await page.getByRole('link', { name: 'See the outputs' }).click();
    await expect(page).toHaveURL(`/projects/files/output/${projectId}`);
  });

  await test.step('the outputs show a still and a playing turntable', async () => {
    await expect(page.getByTestId('output-card')).toHaveCount(6);
    const still = page.getByTestId('output-card').locator('img').first();
    await expect(still).toBeVisible();
    // Visible as soon as it is laid out; its bytes may still be on the way.
    await expect
      .poll(() => still.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    const video = page.getByTestId('output-card').locator('video').first();
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await snap(page, info, '06-outputs');
  });

  await test.step('the output zip holds every still and video', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download zip' }).first().click();
    const file = await download;
    const entries = await zipDigests(await readFile(await file.path()));
    const names = [...entries.keys()];
    expect(names.filter((name) => name.endsWith('.png'))).toHaveLength(4);
    expect(names.filter((name) => name.endsWith('.mp4'))).toHaveLength(2);
  });

  await test.step("the gallery shows today's group", async () => {
    await page.goto('/gallery/files');
    const today = page.getByTestId('gallery-day').first();
    await expect(today).toBeVisible();
    await expect(today).toContainText('4 images · 2 videos');
    await snap(page, info, '07-gallery');
  });
});
