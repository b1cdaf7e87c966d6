import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '../support/test';
import { ensureInstalled, listing, registerAndSignIn } from '../support/api';
import { dropFromDesktop } from '../support/desktop-drop';
import { snap } from '../support/snap';
import { sha256 } from '../support/zip';

test.describe.configure({ mode: 'serial' });

// The outsider's desktop: a loose file and a folder with a file inside, sent in one drop.
const desktop = mkdtempSync(join(tmpdir(), 'atelier-request-'));
const photo = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const toast = 'To the couple, with love.\n';
writeFileSync(join(desktop, 'ceremony.png'), photo);
mkdirSync(join(desktop, 'Reception'), { recursive: true });
writeFileSync(join(desktop, 'Reception', 'toast.txt'), toast);

const notes = 'Hi Sam,\nplease send the photos of the day. <b>Full size</b>, no edits.';
const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

test('an owner asks for files; someone without an account sends a file and a folder, renames one and says they are done; the owner hears of it live', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Robin Requester',
    email: `robin-${Date.now()}@atelier.test`,
    password: 'robin-password-1',
  });

  let link = '';
  await test.step('the owner makes a request for a new folder, with notes', async () => {
    await page.goto('/platform/files');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Upload request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New upload request' });
    await dialog.getByLabel('Name').fill('Wedding photos');
    await dialog.getByLabel('Notes for them').fill(notes);
    await expect(dialog.getByLabel('Open for')).toHaveValue('72');
    await dialog.getByRole('button', { name: 'Create request' }).click();
    link = await dialog.getByRole('textbox', { name: 'Link', exact: true }).inputValue();
    expect(new URL(link).pathname).toMatch(/^\/request\/[0-9a-f-]{36}\/upload$/);
    await expect(dialog.getByRole('img', { name: 'QR code of the link' })).toBeVisible();
    await snap(page, info, '01-request-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(row(page, 'Wedding photos')).toBeVisible();

    await page.goto('/platform/upload-requests');
    const card = page.getByTestId('upload-request').filter({ hasText: 'Wedding photos' });
    await expect(card.getByTestId('request-status')).toHaveText('Active');
    await expect(card).toContainText('0 files received');
    await snap(page, info, '02-request-list');
  });

  const outsiderContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const outsider = await outsiderContext.newPage();
  const requestPath = new URL(link).pathname;

  await test.step('the outsider sees who asks and the notes, as plain text', async () => {
    await outsider.goto(requestPath);
    await expect(outsider.getByRole('heading', { name: 'Wedding photos' })).toBeVisible();
    await expect(outsider.getByText('Robin Requester asks you to send files.')).toBeVisible();
    await expect(outsider.getByText('Requested by')).toBeVisible();
    const shown = outsider.getByText('please send the photos of the day');
    await expect(shown).toHaveText(notes);
    await expect(shown.locator('b')).toHaveCount(0);
    await expect(outsider.getByRole('heading', { name: 'Nothing sent yet' })).toBeVisible();
  });

  await test.step('they drop a file and a folder from the desktop, and rename the file', async () => {
    await dropFromDesktop(outsider, outsider.getByTestId('file-drop-zone'), [
      join(desktop, 'ceremony.png'),
      join(desktop, 'Reception'),
    ]);
    await expect(row(outsider, 'ceremony.png')).toBeVisible();
    await expect(row(outsider, 'Reception')).toBeVisible();

    // The first file arriving tells the owner at once, on the page they have open.
    await expect(page.getByRole('status').filter({ hasText: 'Files are arriving' })).toBeVisible();
    await expect(page.getByTestId('notification-badge')).toHaveText('1');
    const card = page.getByTestId('upload-request').filter({ hasText: 'Wedding photos' });
    await expect(card.getByTestId('request-status')).toHaveText('Receiving');

    await row(outsider, 'ceremony.png').getByRole('button', { name: 'Actions for ceremony.png' }).click();
    const entries = outsider.getByRole('menu').getByRole('menuitem');
    await expect(entries).toHaveText(['Rename', 'Move', 'Delete']);
    await outsider.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = outsider.getByRole('dialog', { name: 'Rename file' });
    await rename.getByLabel('Name').fill('first-dance.png');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(row(outsider, 'first-dance.png')).toBeVisible();
    await snap(outsider, info, '03-request-outsider');
  });

  await test.step('they say they are done and are thanked', async () => {
    await outsider.getByRole('button', { name: 'I’m done' }).click();
    const confirm = outsider.getByRole('dialog', { name: 'Are you done?' });
    await confirm.getByRole('button', { name: 'I’m done' }).click();
    await expect(outsider.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await snap(outsider, info, '04-request-thanks');
  });

  await test.step('the owner hears of it live and finds everything in the folder', async () => {
    await expect(page.getByRole('status').filter({ hasText: 'Upload request closed' })).toBeVisible();
    const card = page.getByTestId('upload-request').filter({ hasText: 'Wedding photos' });
    await expect(card.getByTestId('request-status')).toHaveText('Closed');
    await expect(card).toContainText('2 files received');

    await page.getByRole('button', { name: /^Notifications, [1-9]/ }).click();
    const closed = page.getByTestId('notification').filter({ hasText: 'Upload request closed' });
    await closed.getByRole('link', { name: 'Open folder' }).click();
    await expect(page.getByRole('heading', { name: 'Wedding photos' })).toBeVisible();
    await expect(row(page, 'first-dance.png')).toBeVisible();
    await expect(row(page, 'Reception')).toBeVisible();
    await snap(page, info, '05-request-folder');

    const top = await listing(page, 'all');
    const folder = top.data.find((item) => item.attributes.name === 'Wedding photos')!;
    const inside = await listing(page, folder.id);
    expect(inside.data.map((item) => item.attributes.name).sort()).toEqual(['Reception', 'first-dance.png']);
    const sent = inside.data.find((item) => item.attributes.name === 'first-dance.png')!;
    expect(sha256(await (await page.request.get(`/file/${sent.id}`)).body())).toBe(sha256(photo));
    const reception = inside.data.find((item) => item.attributes.name === 'Reception')!;
    const nested = await listing(page, reception.id);
    expect(nested.data.map((item) => item.attributes.name)).toEqual(['toast.txt']);
    expect(sha256(await (await page.request.get(`/file/${nested.data[0]!.id}`)).body())).toBe(sha256(toast));
  });

  await test.step('the link, opened again, says the request is closed', async () => {
    await outsider.goto(requestPath);
    await expect(outsider.getByRole('heading', { name: 'This upload request is closed' })).toBeVisible();
    await expect(outsider.getByRole('button', { name: 'Upload' })).toHaveCount(0);
    await outsider.setViewportSize({ width: 390, height: 844 });
    await outsider.emulateMedia({ colorScheme: 'dark' });
    await snap(outsider, info, '06-request-closed-phone-dark');
  });

  await outsiderContext.close();
});
