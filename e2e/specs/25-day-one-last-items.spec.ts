import { expect, test } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });

/** A page's first visit loads its code: on a busy machine that takes a while. */
const FIRST_LOAD = { timeout: 20_000 };

test('while maintenance is on, the admin sees it over every page and is one click from turning it off', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);
  const maintenance = (on: boolean) =>
    call(page, 'post', '/api/admin/settings', { settings: { maintenance: on } });
  expect((await maintenance(true)).status()).toBe(204);
  try {
    for (const path of ['/admin/dashboard', '/platform/files']) {
      await page.goto(path);
      const bar = page.getByRole('status').filter({ hasText: 'Maintenance is on.' });
      await expect(bar, path).toContainText('everyone else sees the maintenance page', FIRST_LOAD);
    }
    await snapEverywhere(page, info, '01-maintenance-bar');
    await page
      .getByRole('status')
      .filter({ hasText: 'Maintenance is on.' })
      .getByRole('link', { name: 'Turn it off' })
      .click();
    await expect(page).toHaveURL(/\/admin\/settings\/others$/);
  } finally {
    expect((await maintenance(false)).status()).toBe(204);
  }
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Maintenance is on.' })).toHaveCount(0);
});

test('the upload-request address without its code explains upload requests instead of not-found', async ({
  browser,
}, info) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const visitor = await context.newPage();
  await visitor.goto('/request');
  await expect(visitor.getByRole('heading', { name: 'Sending files through an upload request' })).toBeVisible(
    FIRST_LOAD,
  );
  await expect(visitor.getByText('Open the whole link you were sent')).toBeVisible();
  await expect(visitor.getByText(/not found/i)).toHaveCount(0);
  await snapEverywhere(visitor, info, '02-request-explainer');
  await context.close();
});
