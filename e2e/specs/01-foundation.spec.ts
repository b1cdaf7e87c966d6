import { expect, test, type Page } from '../support/test';
import { admin } from '../support/api';
import { printedSetupLink } from '../support/setup-link';
import { snap } from '../support/snap';

// One journey on a brand-new instance: the wizard, the admin, a registered user and the sign-in guard.
// Steps depend on each other, so they run in order on one page.
test.describe.configure({ mode: 'serial' });

const member = { name: 'Mia Maker', email: 'mia@atelier.test', password: 'member-password-1' };

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a fresh instance is installed through the wizard, then people sign up and sign in', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1280, height: 860 });

  await test.step('any path leads to the wizard, which opens only with the link the server printed', async () => {
    await page.goto('/platform/files');
    await expect(page.getByRole('heading', { name: 'Open the setup link' })).toBeVisible();
    await snap(page, info, '00-setup-link');
    const refused = await page.request.get('/api/setup/status-check');
    expect(refused.status()).toBe(403);

    const link = await printedSetupLink();
    await page.goto(link.pathname + link.search);
    await expect(page).toHaveURL(/\/setup-wizard\/status-check$/);
  });

  await test.step('the status check passes', async () => {
    await expect(page.getByRole('heading', { name: 'Let’s check your server' })).toBeVisible();
    await snap(page, info, '01-status-check');
    await page.getByRole('link', { name: 'Continue' }).click();
  });

  await test.step('the purchase code may be skipped', async () => {
    await expect(page.getByRole('heading', { name: 'Purchase code' })).toBeVisible();
    await snap(page, info, '02-purchase-code');
    await page.getByRole('link', { name: 'Skip this step' }).click();
  });

  await test.step('SQLite is connected and migrated', async () => {
    await expect(page.getByRole('heading', { name: 'Database', exact: true })).toBeVisible();
    await snap(page, info, '03-database');
    await page.getByRole('button', { name: 'Connect and migrate' }).click();
  });

  await test.step('local storage, log mail and Socket.IO are tested', async () => {
    await expect(page.getByRole('heading', { name: 'Environment' })).toBeVisible();
    await snap(page, info, '04-environment');
    await page.getByRole('button', { name: 'Test and continue' }).click();
  });

  await test.step('the application is named', async () => {
    await expect(page.getByRole('heading', { name: 'Your application' })).toBeVisible();
    await page.getByLabel('Application name').fill('Atelier Test Studio');
    await page.getByLabel('Contact e-mail').fill('hello@atelier.test');
    await snap(page, info, '05-app-setup');
    await page.getByRole('button', { name: 'Save and continue' }).click();
  });

  await test.step('the admin account is created and signed in', async () => {
    await expect(page.getByRole('heading', { name: 'Create the admin account' })).toBeVisible();
    await page.getByLabel('Full name').fill(admin.name);
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm password').fill(admin.password);
    await snap(page, info, '06-admin-setup');
    await page.getByRole('button', { name: 'Finish setup' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
    await snap(page, info, '07-admin-signed-in');
  });

  await test.step('the admin tests the realtime connection', async () => {
    await page.goto('/admin/settings/environment');
    await expect(page.getByTestId('broadcasting-driver')).toContainText('socket.io');
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect(page.getByText('Your websocket connection was successfully established')).toBeVisible({
      timeout: 15_000,
    });
    await snap(page, info, '07b-realtime-test');
  });

  await test.step('the wizard is closed once installed', async () => {
    const answer = await page.request.get('/api/setup/status-check');
    expect(answer.status()).toBe(410);
  });

  await test.step('the admin signs out', async () => {
    await signOut(page);
    await snap(page, info, '08-signed-out');
  });

  await test.step('a visitor registers and lands in the app', async () => {
    await page.goto('/inhouse-sign-up');
    await page.getByLabel('Full name').fill(member.name);
    await page.getByLabel('E-mail').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByLabel('Confirm password').fill(member.password);
    await snap(page, info, '09-sign-up');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
    await expect(page).not.toHaveURL(/sign-in|inhouse-sign-up/);
    await snap(page, info, '10-member-home');
  });

  await test.step('a reload keeps the session', async () => {
    const here = page.url();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
    expect(page.url()).toBe(here);
    await signOut(page);
  });

  await test.step('a protected URL while signed out lands on sign-in with the redirect', async () => {
    await page.goto('/user/profile');
    await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fuser%2Fprofile$/);
    await snap(page, info, '11-sign-in-redirect');
  });

  await test.step('signing in returns to the intended page', async () => {
    await signIn(page, member);
    await expect(page).toHaveURL(/\/user\/profile$/);
    await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
    await snap(page, info, '12-back-where-going');
  });

  await test.step('the member cannot open the admin area', async () => {
    await page.goto('/admin/dashboard');
    await expect(page).not.toHaveURL(/\/admin\/dashboard$/);
  });
});
