import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, listing, registerAndSignIn } from '../support/api';
import { dropFromDesktop } from '../support/desktop-drop';
import { snap, snapEverywhere } from '../support/snap';
import { sha256, zipDigests } from '../support/zip';

test.describe.configure({ mode: 'serial' });

// The owner's desktop: a folder to share, and a folder the visitor sends back once they may edit.
const desktop = mkdtempSync(join(tmpdir(), 'atelier-share-'));
const brief = 'Client brief: a pair of ear studs in recycled silver.\n';
const sizes = 'Ring sizes: 52, 54 and 56.\n';
const swatch = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const comment = 'Approved, with a polished finish.\n';
const revisedBrief = 'Client brief: a pair of ear studs in recycled gold.\n';
mkdirSync(join(desktop, 'Handover', 'Measurements'), { recursive: true });
writeFileSync(join(desktop, 'Handover', 'brief.txt'), brief);
writeFileSync(join(desktop, 'Handover', 'swatch.png'), swatch);
writeFileSync(join(desktop, 'Handover', 'Measurements', 'sizes.txt'), sizes);
mkdirSync(join(desktop, 'Feedback'), { recursive: true });
writeFileSync(join(desktop, 'Feedback', 'comment.txt'), comment);

const password = 'handover 2026';
const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

async function openShareDialog(page: Page, name: string, entry: 'Share' | 'Share link') {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
  return page.getByRole('dialog', { name: `Share “${name}”` });
}

test('an owner shares a folder; a visitor opens it with the password, browses, downloads, then uploads once allowed, until the link is revoked and its page says whom to ask', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Sasha Sharer',
    email: `sasha-${Date.now()}@atelier.test`,
    password: 'sasha-password-1',
  });
  await page.goto('/platform/files');
  await dropFromDesktop(page, page.getByTestId('file-drop-zone'), [join(desktop, 'Handover')]);
  await expect(row(page, 'Handover')).toBeVisible();

  let link = '';
  await test.step('the owner shares the folder view-only, with a password and an expiry', async () => {
    const dialog = await openShareDialog(page, 'Handover', 'Share');
    await expect(dialog.getByRole('radio', { name: /Can view/ })).toBeChecked();
    await dialog.getByRole('switch', { name: /Protect with a password/ }).click();
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByLabel('Link expires after').selectOption({ label: '2 days' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    link = await dialog.getByRole('textbox', { name: 'Link', exact: true }).inputValue();
    expect(link).toMatch(/\/share\/[A-Za-z0-9]{16,}$/);
    await expect(dialog.getByRole('img', { name: 'QR code of the link' })).toBeVisible();
    await snap(page, info, '01-share-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(row(page, 'Handover').getByTestId('shared-badge')).toBeVisible();
  });

  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitor = await visitorContext.newPage();
  const sharePath = new URL(link).pathname;

  await test.step('an anonymous visitor is asked for the password, then browses the folder', async () => {
    await visitor.goto(sharePath);
    await expect(visitor.getByRole('heading', { name: 'This folder is protected' })).toBeVisible();
    await snap(visitor, info, '02-share-password');
    await visitor.getByLabel('Password', { exact: true }).fill('not the password');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await expect(visitor.getByText('That password is not right.')).toBeVisible();
    await visitor.getByLabel('Password', { exact: true }).fill(password);
    await visitor.getByRole('button', { name: 'Continue' }).click();

    await expect(visitor.getByRole('heading', { name: 'Handover' })).toBeVisible();
    await expect(row(visitor, 'brief.txt')).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Upload' })).toHaveCount(0);
    await snap(visitor, info, '03-share-visitor');
    await row(visitor, 'Measurements').getByText('Measurements', { exact: true }).dblclick();
    await expect(row(visitor, 'sizes.txt')).toBeVisible();
    await visitor
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('link', { name: 'Handover' })
      .click();
  });

  await test.step('the visitor previews a text file through the share', async () => {
    await row(visitor, 'brief.txt').getByText('brief.txt', { exact: true }).dblclick();
    const preview = visitor.getByRole('dialog', { name: 'brief.txt' });
    await expect(preview.getByText('Client brief: a pair of ear studs')).toBeVisible();
    await snap(visitor, info, '04-share-preview');
    await visitor.keyboard.press('Escape');
  });

  await test.step('the visitor finds a file of a subfolder with the search and previews it there', async () => {
    await visitor.getByRole('button', { name: 'Open search' }).click();
    await visitor.getByRole('combobox', { name: 'Search the shared folder' }).fill('sizes');
    await expect(visitor.getByRole('option')).toHaveText([/sizes\.txt/]);
    await snap(visitor, info, '04b-share-search');
    await visitor.keyboard.press('Enter');
    const preview = visitor.getByRole('dialog', { name: 'sizes.txt' });
    await expect(preview.getByText('Ring sizes: 52')).toBeVisible();
    await visitor.keyboard.press('Escape');
    await expect(visitor.getByRole('heading', { name: 'Measurements' })).toBeVisible();
    await visitor
      .getByRole('navigation', { name: 'Folder path' })
      .getByRole('link', { name: 'Handover' })
      .click();
  });

  await test.step('the visitor downloads everything as one zip with the same bytes', async () => {
    const [download] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByRole('link', { name: 'Download all' }).click(),
    ]);
    const digests = await zipDigests(readFileSync(await download.path()));
    expect(digests.get('Handover/brief.txt')).toBe(sha256(brief));
    expect(digests.get('Handover/swatch.png')).toBe(sha256(swatch));
    expect(digests.get('Handover/Measurements/sizes.txt')).toBe(sha256(sizes));
  });

  await test.step('the owner saves the brief again; the visitor reads both saves in its versions', async () => {
    await page.goto('/platform/files');
    await row(page, 'Handover').getByText('Handover', { exact: true }).dblclick();
    await expect(row(page, 'brief.txt')).toBeVisible();
    await page
      .getByTestId('upload-files-input')
      .setInputFiles({ name: 'brief.txt', mimeType: 'text/plain', buffer: Buffer.from(revisedBrief) });
    const prompt = page.getByRole('dialog', { name: 'A file with this name is already here' });
    await prompt.getByRole('button', { name: 'Replace' }).click();
    await expect(prompt).toBeHidden();

    await visitor.reload();
    await visitor.getByRole('button', { name: 'Actions for brief.txt' }).first().click();
    await visitor.getByRole('menuitem', { name: 'Versions', exact: true }).click();
    const dialog = visitor.getByRole('dialog', { name: 'Details and versions' });
    const versions = dialog.getByRole('listitem');
    await expect(versions).toHaveCount(2);
    await expect(versions.first()).toContainText('Current');
    await expect(versions.first()).toContainText('Saved by Sasha Sharer');
    await expect(dialog).toContainText('1 version');
    // A visitor reads the versions; nothing in the list changes them.
    await expect(dialog.getByRole('button', { name: 'Restore' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await snapEverywhere(visitor, info, '04c-share-versions');

    const download = visitor.waitForEvent('download');
    await versions.last().getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('brief.txt');
    expect(readFileSync((await file.path())!, 'utf8')).toBe(brief);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('a link to the brief alone shows its versions on the shared file’s page', async () => {
    const handover = (await listing(page)).data.find((item) => item.attributes.name === 'Handover')!;
    const brief = (await listing(page, handover.id)).data.find(
      (item) => item.attributes.name === 'brief.txt',
    )!;
    const created = await call(page, 'post', '/api/share', {
      id: brief.id,
      type: 'file',
      permission: 'visitor',
    });
    expect(created.status()).toBe(201);
    const fileLink = ((await created.json()) as { data: { id: string } }).data.id;
    const reader = await visitorContext.newPage();
    await reader.goto(`/share/${fileLink}`);
    await expect(reader.getByRole('heading', { name: 'brief.txt' })).toBeVisible();
    await snapEverywhere(reader, info, '04d-shared-file');
    await reader.getByRole('button', { name: 'Versions', exact: true }).click();
    const dialog = reader.getByRole('dialog', { name: 'Details and versions' });
    await expect(dialog.getByRole('listitem')).toHaveCount(2);
    await expect(dialog.getByRole('button', { name: 'Restore' })).toHaveCount(0);
    await snapEverywhere(reader, info, '04e-shared-file-versions');
    await reader.close();
  });

  await test.step('the owner sees the link in My shared items with its views and downloads', async () => {
    await page.goto('/platform/shared');
    await expect(row(page, 'Handover')).toContainText('Can view');
    await expect(row(page, 'Handover')).toContainText('2 days');
    await snap(page, info, '05-my-shared-items');
    const dialog = await openShareDialog(page, 'Handover', 'Share link');
    await expect(dialog.getByText('Downloads').locator('..')).toContainText('1');
    await dialog.getByRole('button', { name: 'Edit settings' }).click();
    await dialog.getByRole('radio', { name: /Can edit/ }).click();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByRole('button', { name: 'Edit settings' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(row(page, 'Handover')).toContainText('Can edit');
  });

  await test.step('now an editor, the visitor drops a folder from the desktop into the share', async () => {
    await visitor.reload();
    await expect(visitor.getByText('Shared with you · you can edit')).toBeVisible();
    await dropFromDesktop(visitor, visitor.getByTestId('file-drop-zone'), [join(desktop, 'Feedback')]);
    await expect(row(visitor, 'Feedback')).toBeVisible();
    await snap(visitor, info, '06-share-editor-upload');

    const handover = (await (await call(page, 'get', '/api/browse/folders/all')).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const shared = handover.data.find((item) => item.attributes.name === 'Handover')!;
    const inside = (await (await call(page, 'get', `/api/browse/folders/${shared.id}`)).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    const feedback = inside.data.find((item) => item.attributes.name === 'Feedback')!;
    const sent = (await (await call(page, 'get', `/api/browse/folders/${feedback.id}`)).json()) as {
      data: { id: string; attributes: { name: string } }[];
    };
    expect(sent.data.map((item) => item.attributes.name)).toEqual(['comment.txt']);
    const bytes = await page.request.get(`/file/${sent.data[0]!.id}`);
    expect(sha256(await bytes.body())).toBe(sha256(comment));
  });

  await test.step('both sides on a phone in the dark', async () => {
    for (const side of [page, visitor]) {
      await side.setViewportSize({ width: 390, height: 844 });
      await side.emulateMedia({ colorScheme: 'dark' });
    }
    await expect(row(visitor, 'Feedback')).toBeVisible();
    await snap(visitor, info, '07-share-phone-dark');
    await page.goto('/platform/shared');
    await expect(row(page, 'Handover')).toContainText('Can edit');
    await snap(page, info, '08-my-shared-items-phone-dark');
    for (const side of [page, visitor]) {
      await side.setViewportSize({ width: 1440, height: 900 });
      await side.emulateMedia({ colorScheme: 'light' });
    }
  });

  await test.step('the owner revokes the link and its page says so, and whom to ask for a new one', async () => {
    await page.goto('/platform/files');
    const dialog = await openShareDialog(page, 'Handover', 'Share link');
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await dialog.getByRole('alertdialog').getByRole('button', { name: 'Revoke link' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, 'Handover').getByTestId('shared-badge')).toHaveCount(0);

    await visitor.reload();
    await expect(visitor.getByRole('heading', { name: 'This link was turned off' })).toBeVisible();
    await expect(visitor.getByText(/stopped sharing it on .*ask .* for a new link/)).toBeVisible();
    await snapEverywhere(visitor, info, '09-share-revoked');
  });

  await visitorContext.close();
});
