import { expect, test, type Browser, type Page } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snap, snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const TABS = ['appearance', 'index', 'environment', 'others', 'sign-in', 'adsense', 'server'] as const;

/** A square logo drawn by the browser: an orange tile with a dark centre. */
async function logoPng(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 400;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#e8590c';
    context.fillRect(0, 0, 400, 400);
    context.fillStyle = '#1f2937';
    context.fillRect(120, 120, 160, 160);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** What a signed-out visitor sees on the sign-in page, in a browser of their own. */
async function visitorSignIn(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/sign-in');
  return { page, close: () => context.close() };
}

test('an admin renames the app, uploads a logo, closes registration and looks at every settings tab', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);
  const title = `Studio North ${Date.now() % 10_000}`;

  await test.step('the title reaches the sidebar and the browser tab at once', async () => {
    await page.goto('/admin/settings');
    await expect(page).toHaveURL(/\/admin\/settings\/appearance$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    const field = page.getByLabel('App title');
    await expect(field).not.toHaveValue('');
    // A blank title is refused on its field, nothing is saved.
    await field.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: /required|empty|fill/i })
        .first(),
    ).toBeVisible();
    await field.fill(title);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await expect(page.locator('aside').getByText(title)).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`· ${title}$`));
  });

  await test.step('an uploaded logo is previewed and replaces the mark in the sidebar', async () => {
    const uploader = page.getByTestId('image-app_logo');
    await uploader.locator('input[type="file"]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await logoPng(page),
    });
    await expect(page.getByText('Image saved.')).toBeVisible();
    const preview = uploader.locator('img');
    await expect(preview).toBeVisible();
    const sidebarLogo = page.locator('aside img[src^="/api/app-images/"]').first();
    await expect(sidebarLogo).toBeVisible();
    await expect.poll(() => sidebarLogo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(400);
    // An SVG is refused before it is sent.
    await page
      .getByTestId('image-app_favicon')
      .locator('input[type="file"]')
      .setInputFiles({
        name: 'icon.svg',
        mimeType: 'image/svg+xml',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      });
    await expect(page.getByTestId('image-app_favicon').getByRole('alert')).toContainText(
      'SVG is not accepted',
    );
    await snapEverywhere(page, info, '01-appearance');
  });

  await test.step('closing registration takes the sign-up link away from visitors, opening brings it back', async () => {
    const visitor = await visitorSignIn(browser);
    await expect(visitor.page.getByRole('link', { name: 'Create an account' })).toBeVisible();
    await expect(visitor.page.locator('img[src^="/api/app-images/"]').first()).toBeVisible();

    await page.getByRole('link', { name: 'Other settings' }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/others$/);
    const registration = page.getByRole('switch', { name: /^Registration/ });
    await expect(registration).toBeChecked();
    await registration.click();
    // A chunk size below 1 MB is refused on its field, and nothing else is saved either.
    await page.getByLabel('Chunk size (MB)').fill('0.1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('This number is too small.')).toBeVisible();
    await visitor.page.reload();
    await expect(visitor.page.getByRole('link', { name: 'Create an account' })).toBeVisible();

    await page.getByLabel('Chunk size (MB)').fill('8');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // An earlier save's toast may still be on screen beside this one.
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    await visitor.page.reload();
    await expect(visitor.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(visitor.page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
    await snap(visitor.page, info, '02-sign-in-without-registration');
    await snapEverywhere(page, info, '03-others');

    await registration.click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.').last()).toBeVisible();
    await visitor.page.reload();
    await expect(visitor.page.getByRole('link', { name: 'Create an account' })).toBeVisible();
    await visitor.close();
  });

  await test.step('the mail server is tested before it is saved', async () => {
    await page.getByRole('link', { name: 'Environment' }).click();
    await page.getByRole('radio', { name: /SMTP server/ }).click();
    await page.getByLabel('SMTP address').fill('smtp://nobody:nothing@127.0.0.1:1');
    const mail = page.locator('form').filter({ hasText: 'Mail driver' });
    await mail.getByRole('button', { name: 'Test and save' }).click();
    await expect(mail.getByRole('alert')).toContainText('mail:');
    await snapEverywhere(page, info, '04-environment');
    const stored = await (await call(page, 'get', '/api/admin/settings?group=environment')).json();
    expect(stored).toMatchObject({ mail_driver: 'log' });
  });

  await test.step('every other tab, on a desktop and a phone, light and dark', async () => {
    for (const tab of TABS.filter((name) => !['appearance', 'others', 'environment'].includes(name))) {
      await page.goto(`/admin/settings/${tab}`);
      await expect(page.getByRole('navigation', { name: 'Settings sections' })).toBeVisible();
      if (tab === 'server') await expect(page.getByText(/Node\.js /)).toBeVisible();
      else await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
      if (tab === 'sign-in') await page.getByRole('button', { name: 'Add a provider' }).click();
      await snapEverywhere(page, info, `05-${tab}`);
    }
  });

  await test.step('the title goes back', async () => {
    const answer = await call(page, 'post', '/api/admin/settings', {
      settings: { app_title: 'Atelier', app_logo: null },
    });
    expect(answer.status()).toBe(204);
  });
});
