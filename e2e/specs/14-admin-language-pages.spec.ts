import { expect, test, type Page } from '../support/test';
import { admin, ensureInstalled, signIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });
// A browser asking for none of the instance's languages, so the instance default decides what it shows
// (an English browser would be shown English whatever the default).
test.use({ locale: 'fr-FR' });

/** The text box of one string in the editor, found by its key. */
async function editString(page: Page, key: string, value: string): Promise<void> {
  await page.getByPlaceholder('Search keys and texts').fill(key);
  const row = page.getByTestId(`string-${key}`);
  await row.getByRole('textbox').fill(value);
  await expect(row.getByText('Saved')).toBeVisible();
}

test('an admin adds a language, translates the UI into it live, and edits a content page', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);

  await test.step('adds a language, which starts as English', async () => {
    await page.goto('/admin/language');
    await expect(page.getByRole('heading', { name: 'Language editor', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(page.getByTestId('language-en')).toContainText('Default');
    await page.getByRole('button', { name: 'Add language' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Language code').fill('de');
    await dialog.getByLabel('Name').fill('Deutsch');
    await dialog.getByRole('button', { name: 'Add language' }).click();
    await expect(page.getByText('Deutsch was added.')).toBeVisible();
    await expect(page).toHaveURL(/locale=de/);
    await expect(page.getByTestId('language-de')).toContainText(/^Deutsch.*0 of [\d,]+ translated/);
    await expect(page.getByRole('heading', { name: 'Strings of Deutsch' })).toBeVisible();
  });

  await test.step('a missing placeholder is refused inline and nothing is saved', async () => {
    await page.getByPlaceholder('Search keys and texts').fill('files.move_many');
    const row = page.getByTestId('string-files.move_many');
    await row.getByRole('textbox').fill('Wohin sollen die Objekte?');
    await expect(row.getByRole('alert')).toHaveText('Keep the placeholders of the English text: {{count}}.');
    await snapEverywhere(page, info, '01-language-placeholder-error');
    await row.getByRole('textbox').fill('Wohin sollen die {{count}} Objekte?');
    await expect(row.getByText('Saved')).toBeVisible();
    await expect(row.getByText('Translated')).toBeVisible();
  });

  await test.step('translates strings, makes the language the default and sees the UI in it', async () => {
    await editString(page, 'pages.admin_language', 'Sprachen-Editor');
    await page.getByRole('button', { name: /^All/ }).click();
    await expect(page.getByTestId('language-de')).toContainText('2 of');
    await page.getByTestId('language-de').click();
    await page.getByRole('button', { name: 'Make default' }).click();
    await expect(page.getByText('Deutsch is now the default language.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sprachen-Editor', level: 1 })).toBeVisible();
    await page.getByPlaceholder('Search keys and texts').fill('');
    await snapEverywhere(page, info, '02-language-editor');
  });

  await test.step('a second browser sees an edit live, without reloading', async () => {
    const second = await browser.newContext({ locale: 'fr-FR' });
    const other = await second.newPage();
    await other.setViewportSize({ width: 1440, height: 900 });
    await signIn(other, admin);
    await other.goto('/admin/pages');
    await expect(other.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
    await editString(page, 'pages.admin_pages', 'Seiten');
    await expect(other.getByRole('heading', { name: 'Seiten', level: 1 })).toBeVisible();
    await second.close();
  });

  await test.step('English back as the default; the language is removed after a confirmation', async () => {
    await page.getByTestId('language-en').click();
    await page.getByRole('button', { name: 'Make default' }).click();
    await expect(page.getByRole('heading', { name: 'Language editor', level: 1 })).toBeVisible();
    await page.getByTestId('language-de').click();
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Deutsch was removed.')).toBeVisible();
    await expect(page.getByTestId('language-de')).toHaveCount(0);
  });

  await test.step('edits the terms page with a live preview; /page/terms-of-service follows', async () => {
    await page.goto('/admin/pages');
    await expect(page.getByTestId('page-terms-of-service')).toBeVisible();
    await snapEverywhere(page, info, '03-pages-list');
    await page.getByTestId('page-terms-of-service').getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/admin\/pages\/terms-of-service$/);
    await page.getByLabel('Title').fill('Terms of use');
    await page
      .getByLabel('Content')
      .fill(
        '## Your files stay yours\n\nYou keep **every right** to what you upload. Read the ' +
          '[privacy policy](/page/privacy-policy).\n\n- Keep your password private\n- Share only what you may\n\n' +
          '<script>window.hacked = true</script>',
      );
    const preview = page.getByTestId('page-preview');
    await expect(preview.getByRole('heading', { name: 'Your files stay yours', level: 2 })).toBeVisible();
    await expect(preview.getByText('<script>window.hacked = true</script>')).toBeVisible();
    await snapEverywhere(page, info, '04-page-editor');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect(preview.getByRole('heading', { name: 'Your files stay yours' })).toBeVisible();
    await snapEverywhere(page, info, '05-page-editor-preview-tab');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The page is saved.')).toBeVisible();

    await page.goto('/page/terms-of-service');
    await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your files stay yours', level: 2 })).toBeVisible();
    await expect(page.locator('article').getByRole('link', { name: 'privacy policy' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined();
    await snapEverywhere(page, info, '06-public-page');
  });

  await test.step('a hidden page is the not-found page for visitors', async () => {
    await page.goto('/admin/pages');
    const row = page.getByTestId('page-terms-of-service');
    await row.getByRole('switch').click();
    await expect(page.getByText('Terms of use is hidden.')).toBeVisible();
    const visitor = await browser.newPage();
    await visitor.goto('/page/terms-of-service');
    await expect(visitor.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
    await row.getByRole('switch').click();
    await expect(page.getByText('Terms of use is visible.')).toBeVisible();
    await visitor.reload();
    await expect(visitor.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
    await visitor.close();
  });
});
