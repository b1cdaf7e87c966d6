import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { stepBox } from '../../packages/render/test/fixtures/write-cad';
import { call, ensureInstalled, registerAndSignIn } from '../support/api';
import { snap } from '../support/snap';
import { zipDigests } from '../support/zip';

// The live viewer draws with WebGL; headless Chromium without a GPU provides it through SwiftShader.
test.use({
  launchOptions: {
    executablePath: [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path)),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-unsafe-swiftshader'],
  },
});

const desktop = mkdtempSync(join(tmpdir(), 'atelier-models-'));

/** A binary STL torus: a plain ring, 18 mm across, made here so the journey needs no fixture files. */
function ringStl(): Buffer {
  const [R, r, seg, sides] = [9, 1.6, 64, 24];
  const at = (i: number, j: number) => {
    const u = (i / seg) * 2 * Math.PI;
    const v = (j / sides) * 2 * Math.PI;
    return [(R + r * Math.cos(v)) * Math.cos(u), r * Math.sin(v), (R + r * Math.cos(v)) * Math.sin(u)];
  };
  const triangles: number[][][] = [];
  for (let i = 0; i < seg; i++) {
    for (let j = 0; j < sides; j++) triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)], [at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
  }
  const bytes = Buffer.alloc(84 + triangles.length * 50);
  bytes.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, k) =>
    triangle.forEach((vertex, v) => vertex.forEach((x, axis) => bytes.writeFloatLE(x, 84 + k * 50 + 12 + v * 12 + axis * 4))),
  );
  return bytes;
}
writeFileSync(join(desktop, 'band.stl'), ringStl());
writeFileSync(join(desktop, 'display-block.step'), stepBox([30, 18, 12]));

test('a member turns a STEP file and an STL into stills, turntables and a zip', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, { name: 'Petra Projects', email: 'petra@atelier.test', password: 'petra-password-1' });

  await page.goto('/projects');
  await page.getByRole('link', { name: 'New project' }).first().click();
  await page.getByLabel('Project name').fill('Spring rings');
  await page.getByLabel('Description').fill('A band and its display block.');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/projects\/files\/[0-9a-f-]{36}$/);
  const projectId = page.url().split('/').pop()!;

  await test.step('a STEP file and an STL are uploaded into the project', async () => {
    await page.getByTestId('project-upload-input').setInputFiles([join(desktop, 'display-block.step'), join(desktop, 'band.stl')]);
    await expect(page.getByTestId('project-input')).toHaveCount(2);
    await expect(page.getByTestId('project-input').first()).toContainText('Not rendered yet');
    await snap(page, info, '01-inputs');
  });

  await test.step('the customise screen shows the model live and saves a finish', async () => {
    await page.getByRole('link', { name: 'Customize' }).first().click();
    await expect(page.getByTestId('model-viewer').locator('canvas')).toBeVisible();
    await page.getByRole('button', { name: 'Rose gold' }).click();
    await expect
      .poll(async () => (await (await call(page, 'get', `/api/browse/projects/${projectId}`)).json()).meta.root.attributes.settings.materials?.['*']?.metalness)
      .toBe(1);
    // Wait for the viewer to draw before keeping the picture.
    await page.waitForTimeout(1000);
    await snap(page, info, '02-customize');
  });

  await test.step('small outputs keep the journey quick', async () => {
    for (const [updateKey, updateValue] of [
      ['resolution', { width: 320, height: 320 }],
      ['stills', 2],
      ['turntable', { seconds: 2, fps: 8 }],
    ] as const) {
      const answer = await call(page, 'post', '/api/update-project-settings', { project_id: projectId, updateKey, updateValue });
      expect(answer.status(), await answer.text()).toBe(200);
    }
  });

  await test.step('rendering starts and its progress arrives in realtime', async () => {
    await page.getByRole('link', { name: 'Models' }).first().click();
    await page.getByRole('combobox', { name: 'Render category' }).selectOption('ring');
    await page.getByRole('button', { name: 'Render all' }).click();
    await expect(page.getByText('Rendering').first()).toBeVisible({ timeout: 60_000 });
    await snap(page, info, '03-rendering');
    await expect(page.getByTestId('project-input').filter({ hasText: 'Done' })).toHaveCount(2, { timeout: 240_000 });
  });

  await test.step('outputs appear: a still is shown and a turntable plays', async () => {
    await page.getByRole('link', { name: 'Output' }).first().click();
    await expect(page.getByTestId('output-card')).toHaveCount(6);
    const still = page.getByTestId('output-card').locator('img').first();
    await expect(still).toBeVisible();
    await expect.poll(() => still.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const video = page.getByTestId('output-card').locator('video').first();
    await video.evaluate((element: HTMLVideoElement) => element.play());
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
    await snap(page, info, '04-output');
  });

  await test.step('the output zip holds every render', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download zip' }).click();
    const file = await (await download).path();
    const entries = [...(await zipDigests(readFileSync(file!))).keys()].filter((name) => !name.endsWith('/')).sort();
    expect(entries).toHaveLength(6);
    expect(entries.filter((name) => name.endsWith('.png'))).toHaveLength(4);
    expect(entries.filter((name) => name.endsWith('.mp4'))).toHaveLength(2);
  });

  await test.step('the gallery shows today’s group', async () => {
    await page.goto('/gallery/files');
    const today = new Date().toLocaleDateString('en', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
    const group = page.getByTestId('gallery-day');
    await expect(group).toHaveCount(1);
    await expect(group).toContainText(today);
    await expect(group).toContainText('4 images · 2 videos');
    await snap(page, info, '05-gallery');
  });
});
