import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, listing, registerAndSignIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

const saves = ['Bracket, first cut.\n', 'Bracket, holes moved.\n', 'Bracket, thicker flange.\n'];

const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

async function upload(page: Page, text: string) {
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: 'bracket.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
}

/** Answers the question an upload of a name the folder holds asks. */
async function answer(page: Page, choice: 'Replace' | 'Keep both') {
  const prompt = page.getByRole('dialog', { name: 'A file with this name is already here' });
  await expect(prompt).toContainText('“bracket.txt” already exists in this folder');
  await prompt.getByRole('button', { name: choice }).click();
  await expect(prompt).toBeHidden();
}

test('a file saved three times keeps its versions: one restored and downloaded; keep both names the copy', async ({
  page,
}, info) => {
  // Twelve full-page screenshots (three screens, two widths, two themes) on top of the journey.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Vera Versions',
    email: 'vera@atelier.test',
    password: 'vera-password-1',
  });
  await page.goto('/platform/files');
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  const current = async () => {
    const file = (await listing(page)).data.filter((item) => item.attributes.name === 'bracket.txt');
    expect(file).toHaveLength(1);
    return { id: file[0]!.id, text: await (await call(page, 'get', `/file/${file[0]!.id}`)).text() };
  };

  await test.step('the file is uploaded, then uploaded again twice choosing Replace', async () => {
    await upload(page, saves[0]!);
    await expect(row(page, 'bracket.txt')).toBeVisible();
    for (const text of saves.slice(1)) {
      await upload(page, text);
      await answer(page, 'Replace');
      await expect.poll(async () => (await current()).text).toBe(text);
    }
    await expect(row(page, 'bracket.txt')).toHaveCount(1);
  });

  const dialog = page.getByRole('dialog', { name: 'Details and versions' });
  await test.step('its versions list the three saves, the newest current', async () => {
    await page.getByRole('button', { name: 'Actions for bracket.txt' }).first().click();
    await page.getByRole('menuitem', { name: 'Versions', exact: true }).click();
    const versions = dialog.getByRole('listitem');
    await expect(versions).toHaveCount(3);
    await expect(versions.first()).toContainText('Current');
    await expect(versions.first()).toContainText('Saved by Vera Versions');
    await expect(dialog).toContainText('2 versions');
    await snapEverywhere(page, info, '01-versions');
  });

  await test.step('restoring the first save makes it current; the one it replaced is kept', async () => {
    const versions = dialog.getByRole('listitem');
    await versions.last().getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText(/Version restored/)).toBeVisible();
    await expect.poll(async () => (await current()).text).toBe(saves[0]);
    await expect(versions).toHaveCount(3);
    await expect(versions.first()).toContainText('Current');
  });

  await test.step('the restored bytes download from the list', async () => {
    const download = page.waitForEvent('download');
    await dialog.getByRole('listitem').first().getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('bracket.txt');
    expect(await readFile((await file.path())!, 'utf8')).toBe(saves[0]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('keep both names the new file bracket (1).txt beside it', async () => {
    await upload(page, 'A second bracket.\n');
    await expect(page.getByRole('dialog', { name: 'A file with this name is already here' })).toBeVisible();
    await snapEverywhere(page, info, '02-name-taken');
    await answer(page, 'Keep both');
    await expect(row(page, 'bracket (1).txt')).toBeVisible();
    expect((await current()).text).toBe(saves[0]);
    await snapEverywhere(page, info, '03-kept-both');
  });
});
