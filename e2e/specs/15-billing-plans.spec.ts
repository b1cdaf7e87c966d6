import { expect, test, type Page } from '../support/test';
import { admin, call, ensureInstalled } from '../support/api';
import { snapEverywhere } from '../support/snap';

async function signInAsAdmin(page: Page): Promise<void> {
  const answer = await call(page, 'post', '/api/login', { email: admin.email, password: admin.password });
  expect(answer.status(), await answer.text()).toBe(200);
}

test('an admin makes a fixed and a metered plan, is told what is wrong with a tier, and deletes a plan', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signInAsAdmin(page);

  await test.step('creates a fixed plan', async () => {
    await page.goto('/admin/plans');
    await expect(page.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible();
    const cookies = page.getByRole('button', { name: 'Got it' });
    if (await cookies.isVisible()) await cookies.click();
    await page.getByRole('link', { name: 'New fixed plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/create\/fixed$/);
    await page.getByLabel('Name').fill('Studio');
    await page.getByLabel('Description').fill('For small teams that share big files');
    await page.getByLabel('Price').fill('19.99');
    await page.getByLabel('Storage (GB)').fill('200');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/[0-9a-f-]+\/fixed\/settings$/);
    await expect(page.getByRole('heading', { name: 'Studio', level: 1 })).toBeVisible();
    await expect(page.getByText('$19.99 per month')).toBeVisible();
  });

  await test.step('a metered plan with a gap between tiers is refused on the tier', async () => {
    await page.goto('/admin/plan/create/metered');
    await page.getByLabel('Name').fill('Pay as you go');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Add a tier' }).click();
    await expect(page.getByLabel('To unit').first()).toHaveValue('10');
    await page.getByLabel('From unit').nth(1).fill('12');
    await page.getByLabel('Per unit (EUR)').nth(1).fill('0.10');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page.getByText('This tier must start right after the previous one ends.')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/plan\/create\/metered$/);
    await snapEverywhere(page, info, '01-metered-tier-error');

    await page.getByLabel('From unit').nth(1).fill('11');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plan\/[0-9a-f-]+\/metered\/settings$/);
    await expect(page.getByText('€0.10 per unit + €0.00')).toBeVisible();
    await snapEverywhere(page, info, '02-metered-settings');
  });

  await test.step('the list shows both; the metered one is deleted', async () => {
    await page.getByRole('link', { name: 'All plans' }).click();
    await expect(page.getByTestId('plan-row')).toHaveCount(2);
    await expect(page.getByTestId('plan-row').filter({ hasText: 'Pay as you go' })).toContainText(
      'By use: Storage',
    );
    await expect(page.getByTestId('plan-row').filter({ hasText: 'Studio' })).toContainText(
      '$19.99 per month',
    );
    await snapEverywhere(page, info, '03-plans');

    await page.getByRole('link', { name: 'Pay as you go' }).click();
    await page.getByRole('link', { name: 'Delete' }).click();
    await expect(page.getByText('Nobody holds this plan, so it can be deleted for good.')).toBeVisible();
    await snapEverywhere(page, info, '04-delete');
    await page.getByRole('button', { name: 'Delete plan' }).click();
    await expect(page).toHaveURL(/\/admin\/plans$/);
    await expect(page.getByTestId('plan-row')).toHaveCount(1);
  });
});
