import { expect, test } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const person = {
  name: `Nora Newcomer ${stamp}`,
  email: `nora-${stamp}@atelier.test`,
  password: 'nora-password-1',
};

test('an admin creates a user, raises their capacity, makes them an admin and deletes them', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);

  await test.step('the dashboard shows the instance', async () => {
    // Other journeys sign people up before this one: the newest account is the one made here.
    const newest = { name: `Dora Dashboard ${stamp}`, email: `dora-${stamp}@atelier.test` };
    const made = await call(page, 'post', '/api/admin/users', {
      ...newest,
      password: 'dora-password-1',
      role: 'user',
    });
    expect(made.status(), await made.text()).toBe(201);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(page.getByTestId('stat-card')).toHaveCount(4);
    await expect(page.getByText('No transactions yet')).toBeVisible();
    await expect(page.getByTestId('health-line')).toContainText('Storage');
    await expect(page.getByTestId('newest-users').getByRole('listitem').first()).toContainText(newest.email);
    await snapEverywhere(page, info, '01-dashboard');
  });

  await test.step('creates an account from the users list', async () => {
    await page.getByRole('link', { name: 'Users' }).first().click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    await page.getByRole('link', { name: 'Create user' }).click();
    await expect(page.getByRole('heading', { name: 'Create user', level: 1 })).toBeVisible();
    // A wrong address is caught on its field before anything is sent.
    await page.getByLabel('Name').fill(person.name);
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByLabel('Password').fill(person.password);
    await page.getByLabel('Storage capacity (GB)').fill('1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
    await snapEverywhere(page, info, '02-create-user');
    await page.getByLabel('E-mail').fill(person.email);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page).toHaveURL(/\/admin\/user\/[\w-]+\/details$/);
    await expect(page.getByTestId('user-name')).toHaveText(person.name);
    await expect(page.getByText(`${person.name} can sign in now.`)).toBeVisible();
  });

  const userId = /\/admin\/user\/([\w-]+)\//.exec(page.url())![1]!;

  await test.step('finds the new account by search, with its role badge and storage', async () => {
    await page.goto('/admin/users');
    await page.getByPlaceholder('Search by name or e-mail').fill(`nora-${stamp}`);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    const row = page.getByTestId('user-row');
    await expect(row.getByTestId('role-badge')).toHaveText('User');
    await expect(row).toContainText('0 B of 1 GB');
    await page.getByPlaceholder('Search by name or e-mail').fill('');
    await expect(page.getByTestId('user-row')).not.toHaveCount(1);
    await snapEverywhere(page, info, '03-users');
  });

  await test.step('raises the capacity; the account follows at once', async () => {
    await page.goto(`/admin/user/${userId}/storage`);
    await expect(page.getByTestId('storage-capacity')).toContainText('1 GB');
    await page.getByLabel('Storage capacity (GB)').fill('25');
    await page.getByRole('button', { name: 'Save capacity' }).click();
    await expect(page.getByText('The new capacity applies now.')).toBeVisible();
    await expect(page.getByTestId('storage-capacity')).toContainText('25 GB');
    const detail = await (await call(page, 'get', `/api/admin/users/${userId}`)).json();
    expect(detail.meta.limitations.max_storage_amount.total).toBe(25_000_000_000);
    await snapEverywhere(page, info, '04-user-storage');
  });

  await test.step('the subscription and password tabs', async () => {
    await page.getByRole('link', { name: 'Subscription', exact: true }).click();
    await expect(page.getByText('No subscription')).toBeVisible();
    await snapEverywhere(page, info, '05-user-subscription');
    await page.getByRole('link', { name: 'Password' }).click();
    await expect(page.getByRole('button', { name: 'Mail a reset link' })).toBeVisible();
    await snapEverywhere(page, info, '06-user-password');
  });

  await test.step('makes the person an admin', async () => {
    await page.getByRole('link', { name: 'Details' }).click();
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await expect(page.locator('header').getByTestId('role-badge')).toHaveText('Admin');
    await snapEverywhere(page, info, '07-user-details');
  });

  await test.step('the audit log lists every change', async () => {
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    const entries = page.getByTestId('audit-entry');
    await expect(entries.nth(0)).toContainText(`changed ${person.name}`);
    await expect(entries.nth(0)).toContainText('Role: user → admin');
    await expect(entries.nth(1)).toContainText('Capacity (GB): 1 → 25');
    await expect(entries.nth(2)).toContainText(`created ${person.name}`);
    await snapEverywhere(page, info, '08-audit');
  });

  await test.step('deletes the account after its name is typed', async () => {
    await page.goto(`/admin/user/${userId}/delete`);
    const submit = page.getByRole('button', { name: 'Delete user' });
    await expect(submit).toBeDisabled();
    await page.getByLabel(`Type “${person.name}” to confirm`).fill(person.name.slice(0, -1));
    await expect(submit).toBeDisabled();
    await snapEverywhere(page, info, '09-user-delete');
    await page.getByLabel(`Type “${person.name}” to confirm`).fill(person.name);
    await submit.click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByText(`${person.name} and everything they stored are deleted.`)).toBeVisible();
    await expect(page.getByText(person.email)).toHaveCount(0);
    expect((await call(page, 'get', `/api/admin/users/${userId}`)).status()).toBe(404);
    const login = await call(page, 'post', '/api/login', { email: person.email, password: person.password });
    expect(login.status()).toBe(422);
  });
});
