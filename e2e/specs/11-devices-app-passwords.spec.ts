import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, registerAndSignIn, type Person } from '../support/api';
import { snap } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const linus: Person = {
  name: 'Linus Pauling',
  email: `linus-${Date.now()}@atelier.test`,
  password: 'linus-password-1',
};
const PHONE_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const devicesList = (page: Page) => page.getByRole('list', { name: 'Devices' });
const appPasswordsList = (page: Page) => page.getByRole('list', { name: 'App passwords' });

async function openProfile(page: Page): Promise<void> {
  await page.goto('/user/profile');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  const cookies = page.getByRole('button', { name: 'Got it' });
  if (await cookies.isVisible()) await cookies.click();
}

test('a person sees their two devices and signs the phone out; the phone lands on sign-in', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, linus);
  const phone = await (
    await browser.newContext({ userAgent: PHONE_AGENT, viewport: { width: 390, height: 844 } })
  ).newPage();
  expect(
    (await call(phone, 'post', '/api/login', { email: linus.email, password: linus.password })).status(),
  ).toBe(200);
  await openProfile(phone);

  await openProfile(page);
  const devices = devicesList(page);
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  const thisOne = devices.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(thisOne).toContainText('Active now');
  await expect(thisOne.getByRole('button')).toHaveCount(0);
  const phoneLine = devices.getByRole('listitem').filter({ hasText: 'Safari 17 on iOS 17.5' });
  await expect(phoneLine).toBeVisible();
  await phoneLine.scrollIntoViewIfNeeded();
  await snap(page, info, '01-devices-desktop');

  await phoneLine.getByRole('button', { name: 'Sign out Safari 17 on iOS 17.5' }).click();
  await expect(page.getByText('Safari 17 on iOS 17.5 is signed out.')).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);

  // The phone's next navigation finds its session gone.
  await phone.goto('/platform/files');
  await expect(phone).toHaveURL(/\/sign-in/);
  await snap(phone, info, '02-phone-signed-out');
  await phone.context().close();
});

test('an app password is shown once, with what a WebDAV client needs, then listed and revoked', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(
    (await call(page, 'post', '/api/login', { email: linus.email, password: linus.password })).status(),
  ).toBe(200);
  await openProfile(page);
  await expect(page.getByText('No app passwords yet.')).toBeVisible();

  const form = page
    .locator('form')
    .filter({ has: page.getByRole('button', { name: 'Create app password' }) });
  await form.getByRole('button', { name: 'Create app password' }).click();
  await expect(form.getByText('This field is required.')).toBeVisible();
  await form.getByLabel('Name').fill('Laptop backup');
  await form.getByRole('button', { name: 'Create app password' }).click();

  const dialog = page.getByRole('dialog', { name: 'App password “Laptop backup”' });
  await expect(dialog).toBeVisible();
  const password = await dialog.getByLabel('Password').inputValue();
  expect(password).toMatch(/^[a-z2-9]{6}(-[a-z2-9]{6}){3}$/);
  await expect(dialog).toContainText(linus.email);
  await expect(dialog).toContainText(new URL('/dav/', page.url()).href);
  await snap(page, info, '03-app-password-shown-once');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  const line = appPasswordsList(page).getByRole('listitem').filter({ hasText: 'Laptop backup' });
  await expect(line).toContainText('never used');
  // Shown once: neither the page nor the list call carries it again.
  await page.reload();
  await expect(line).toBeVisible();
  expect(await page.content()).not.toContain(password);
  const listed = await call(page, 'get', '/api/user/app-passwords');
  expect(await listed.text()).not.toContain(password);
  expect(await listed.text()).not.toContain(password.replaceAll('-', ''));
  await line.scrollIntoViewIfNeeded();
  await snap(page, info, '04-app-passwords-desktop');

  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, info, '05-account-security-desktop-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await devicesList(page).scrollIntoViewIfNeeded();
  await snap(page, info, '06-account-security-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await snap(page, info, '07-account-security-phone-light');

  await line.getByRole('button', { name: 'Revoke Laptop backup' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('“Laptop backup” is revoked.')).toBeVisible();
  await expect(page.getByText('No app passwords yet.')).toBeVisible();
});
