import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { boxMesh } from '../../packages/render/test/fixtures/shapes';
import { binaryStl } from '../../packages/render/test/fixtures/write-formats';
import { call, ensureInstalled, registerAndSignIn, renderProject } from '../support/api';
import { snapEverywhere } from '../support/snap';
import { zipDigests } from '../support/zip';

const desktop = mkdtempSync(join(tmpdir(), 'atelier-shop-'));
const stlPath = join(desktop, 'desk-lamp.stl');
writeFileSync(stlPath, binaryStl(boxMesh()));

test('an owner builds a shop pack, sees every image pass its checks, and downloads it; a link’s visitor downloads it too', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Sam Seller',
    email: `sam-${Date.now()}@atelier.test`,
    password: 'sam-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', { project_name: 'Desk lamps' });
  const project = await created.json();
  const projectId: string = project.id;

  await test.step('a model is rendered into two stills on a transparent background', async () => {
    await page.goto(`/projects/files/${projectId}`);
    await page.getByTestId('project-upload-input').setInputFiles([stlPath]);
    await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
    await renderProject(page, projectId, {
      settings: {
        engine: 'draft',
        resolution: { width: 160, height: 120 },
        stills: 2,
        video: false,
        background: { kind: 'transparent' },
      },
      category: 'product',
      outputs: 2,
    });
  });

  await test.step('the Shop pack section builds the chosen presets one after another and shows each check', async () => {
    await page.goto(`/projects/files/output/${projectId}`);
    // The cookie notice would cover the section in the screenshots.
    await page.getByRole('button', { name: 'Got it' }).click();
    const section = page.getByTestId('shop-pack');
    await expect(section.getByText('No pack built yet.', { exact: false })).toBeVisible();
    // Amazon and Instagram stay chosen; Shopify and Google are left out, Pinterest is added.
    await section.getByTestId('shop-preset-shopify').uncheck();
    await section.getByTestId('shop-preset-google-merchant').uncheck();
    await section.getByTestId('shop-preset-pinterest').check();
    await section.getByRole('button', { name: 'Build and check' }).click();
    await expect(section.getByTestId('shop-pack-progress')).toContainText('Building Amazon (1 of 3)');
    await expect(section.getByTestId('shop-pack-image')).toHaveCount(6, { timeout: 120_000 });
    await expect(section.getByTestId('shop-pack-progress')).toBeHidden({ timeout: 120_000 });
    await expect(section.getByText('6 of 6 images pass')).toBeVisible();
    await expect(section.locator('[data-passed="false"]')).toHaveCount(0);
    await expect(section.locator('[data-check="background"]').first()).toHaveText('Border pure white (100%)');
    await section.scrollIntoViewIfNeeded();
    await snapEverywhere(page, info, '01-shop-pack-checks');
  });

  await test.step('the pack downloads as a zip of each preset’s images and the manifest of their checks', async () => {
    const section = page.getByTestId('shop-pack');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: 'Download shop pack' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Desk-lamps-shop-pack.zip');
    const entries = [...(await zipDigests(readFileSync(await download.path()))).keys()].sort();
    expect(entries).toHaveLength(7);
    expect(entries.filter((name) => name.startsWith('amazon-main/'))).toHaveLength(2);
    expect(entries.filter((name) => name.startsWith('instagram-shop/'))).toHaveLength(2);
    expect(entries.filter((name) => name.startsWith('pinterest/'))).toHaveLength(2);
    expect(entries).toContain('manifest.json');
  });

  await test.step('a visitor of a link to the project downloads the pack without signing in', async () => {
    const shared = await call(page, 'post', '/api/share', {
      id: project.data.attributes.folder_id,
      type: 'folder',
      permission: 'visitor',
    });
    expect(shared.status()).toBe(201);
    const token: string = (await shared.json()).data.attributes.token;
    const visitor = await browser.newContext();
    const answer = await visitor.request.get(
      new URL(`/api/sharing/shop-pack/${token}?presets=etsy`, page.url()).href,
    );
    expect(answer.status()).toBe(200);
    const entries = [...(await zipDigests(await answer.body())).keys()].sort();
    expect(entries).toEqual(expect.arrayContaining(['manifest.json']));
    expect(entries.filter((name) => name.startsWith('etsy/'))).toHaveLength(2);
    await visitor.close();
  });
});
