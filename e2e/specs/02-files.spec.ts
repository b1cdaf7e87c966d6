import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, listing, registerAndSignIn } from '../support/api';
import { dropFromDesktop } from '../support/desktop-drop';
import { snap } from '../support/snap';
import { sha256, zipDigests } from '../support/zip';

test.describe.configure({ mode: 'serial' });

const desktop = mkdtempSync(join(tmpdir(), 'atelier-desktop-'));
const note = 'Meeting notes: ring sizes 52 and 54.\n';
const plan = 'Workshop plan, first draft.\n';
const photo = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
writeFileSync(join(desktop, 'meeting notes.txt'), note);
writeFileSync(join(desktop, 'swatch.png'), photo);
mkdirSync(join(desktop, 'Drawings', 'Details'), { recursive: true });
writeFileSync(join(desktop, 'Drawings', 'plan.txt'), plan);
writeFileSync(join(desktop, 'Drawings', 'Details', 'clasp.txt'), 'Clasp detail.\n');

const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

async function itemAction(page: Page, name: string, action: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

test('a member uploads by drag and drop and organises their files', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Fiona Files',
    email: 'fiona@atelier.test',
    password: 'fiona-password-1',
  });
  await page.goto('/platform/files');
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  await test.step('files and a whole folder dropped from the desktop are uploaded', async () => {
    const zone = page.getByTestId('file-drop-zone');
    await dropFromDesktop(page, zone, [
      join(desktop, 'meeting notes.txt'),
      join(desktop, 'swatch.png'),
      join(desktop, 'Drawings'),
    ]);
    // Whitespace in names becomes hyphens; the folder keeps its tree.
    await expect(row(page, 'meeting-notes.txt')).toBeVisible();
    await expect(row(page, 'swatch.png')).toBeVisible();
    await expect(row(page, 'Drawings')).toBeVisible();
    await snap(page, info, '01-uploaded');
    const drawings = (await listing(page)).data.find((item) => item.attributes.name === 'Drawings');
    const inside = await listing(page, drawings!.id);
    expect(inside.data.map((item) => item.attributes.name).sort()).toEqual(['Details', 'plan.txt']);
  });

  await test.step('a folder is created, a file renamed and moved into it', async () => {
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('Archive');
    await page.getByLabel('Folder name').press('Enter');
    await expect(row(page, 'Archive')).toBeVisible();

    await itemAction(page, 'meeting-notes.txt', 'Rename');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('ring-sizes.txt');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(row(page, 'ring-sizes.txt')).toBeVisible();

    const moveToArchive = async () => {
      await itemAction(page, 'ring-sizes.txt', 'Move');
      await page.getByRole('dialog').getByRole('treeitem', { name: 'Archive' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Move here' }).click();
      await expect(row(page, 'ring-sizes.txt')).toHaveCount(0);
    };
    // The move says what happened and offers Undo, which puts the file back where it was.
    await moveToArchive();
    const moved = page.getByRole('status').filter({ hasText: '\u201cring-sizes.txt\u201d was moved.' });
    await moved.getByRole('button', { name: 'Undo' }).click();
    await expect(row(page, 'ring-sizes.txt')).toBeVisible();
    await moveToArchive();
    await expect(row(page, 'Archive')).toContainText('1 item');
    await row(page, 'Archive').getByText('Archive', { exact: true }).dblclick();
    await expect(row(page, 'ring-sizes.txt')).toBeVisible();
    await snap(page, info, '02-inside-archive');
    await page.goto('/platform/files');
  });

  await test.step('a favourite is marked at once', async () => {
    await row(page, 'swatch.png').getByRole('button', { name: 'Add to favourites' }).click();
    await expect(
      row(page, 'swatch.png').getByRole('button', { name: 'Remove from favourites' }),
    ).toBeVisible();
  });

  await test.step('the spotlight finds a file inside a folder', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox').fill('plan');
    // A result says where the file lives, not what type it is.
    await expect(page.getByRole('option', { name: /plan\.txt/ })).toContainText('In My files / Drawings');
    await snap(page, info, '03-spotlight');
    await page.keyboard.press('Escape');
  });

  await test.step('grid view is remembered across a reload', async () => {
    await page.getByRole('button', { name: 'Grid view' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    await snap(page, info, '04-grid');
    await page.getByRole('button', { name: 'List view' }).click();
  });

  await test.step('a zip of a folder and a file holds byte-identical files in their tree', async () => {
    const items = (await listing(page)).data.filter((item) =>
      ['Drawings', 'swatch.png'].includes(item.attributes.name),
    );
    const query = items.map((item) => `${item.id}|${item.type}`).join(',');
    const answer = await call(page, 'get', `/api/zip?items=${query}`);
    expect(answer.headers()['content-type']).toContain('application/zip');
    const digests = await zipDigests(await answer.body());
    expect(digests.get('swatch.png')).toBe(sha256(photo));
    expect(digests.get('Drawings/plan.txt')).toBe(sha256(plan));
    expect(digests.get('Drawings/Details/clasp.txt')).toBe(sha256('Clasp detail.\n'));
  });

  await test.step('a deleted folder comes back with Undo, waits in the trash, is restored, then the trash is emptied', async () => {
    await itemAction(page, 'Drawings', 'Delete');
    await expect(row(page, 'Drawings')).toHaveCount(0);
    const toast = page
      .getByRole('status')
      .filter({ hasText: '\u201cDrawings\u201d was moved to the trash.' });
    await expect(toast.getByRole('link', { name: 'Open trash' })).toBeVisible();
    await snap(page, info, '05a-deleted-with-undo');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(row(page, 'Drawings')).toBeVisible();

    await itemAction(page, 'Drawings', 'Delete');
    await expect(row(page, 'Drawings')).toHaveCount(0);
    await page.goto('/platform/trash');
    await expect(row(page, 'Drawings')).toBeVisible();
    await snap(page, info, '05-trash');
    await itemAction(page, 'Drawings', 'Restore');
    await expect(row(page, 'Drawings')).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: '\u201cDrawings\u201d is back where it was.' }),
    ).toContainText('Undo');
    await page.goto('/platform/files');
    await expect(row(page, 'Drawings')).toBeVisible();

    await itemAction(page, 'Drawings', 'Delete');
    await page.goto('/platform/trash');
    await page.getByRole('button', { name: 'Empty trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Empty trash' }).click();
    await expect(page.getByText('Your trash was successfully cleared.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your trash is empty' })).toBeVisible();
  });
});

test('a 1 GiB upload survives a dropped chunk and arrives intact', async ({ page }, info) => {
  test.setTimeout(600_000);
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Gus Giant',
    email: 'gus@atelier.test',
    password: 'gus-password-123',
  });

  const path = join(desktop, 'big-model.bin');
  const source = createHash('sha256');
  const out = createWriteStream(path);
  for (let mib = 0; mib < 1024; mib++) {
    const block = Buffer.alloc(1024 * 1024, mib % 251);
    block.writeUInt32BE(mib, 0);
    source.update(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);

  await page.goto('/platform/files');
  // The third chunk's connection drops once; the queue must retry it, not restart or give up.
  let seen = 0;
  await page.route(
    '**/api/upload/chunks',
    (route) => (++seen === 3 ? route.abort('connectionreset') : route.continue()),
    { times: 3 },
  );
  await page.getByTestId('upload-files-input').setInputFiles(path);
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await snap(page, info, '06-big-upload-progress');
  await expect(row(page, 'big-model.bin')).toBeVisible({ timeout: 540_000 });
  expect(seen, 'the third chunk was dropped once').toBe(3);

  const file = (await listing(page)).data.find((item) => item.attributes.name === 'big-model.bin')!;
  const cookies = await page.context().cookies();
  const response = await fetch(new URL(`/file/${file.id}`, page.url()), {
    headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
  });
  expect(response.status).toBe(200);
  const served = createHash('sha256');
  const reader = response.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) served.update(part.value);
  expect(served.digest('hex')).toBe(source.digest('hex'));
});
