import { expect, test, type Page } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snap, snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const colleague = {
  name: `Cleo Colleague ${stamp}`,
  email: `cleo-${stamp}@atelier.test`,
  password: 'cleo-password-1',
};

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const fileManager = (page: Page) => page.getByRole('navigation', { name: 'File manager' });

test('the admin opens Settings from the dashboard and gives new accounts the studio and the file manager', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);

  await test.step('the admin opens Settings from the dashboard in one click', async () => {
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Got it' }).click();
    const sections = page.getByRole('navigation', { name: 'Administration sections' });
    await expect(sections.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await snapEverywhere(page, info, '01-admin-dashboard');
    await sections.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/appearance$/);
    await expect(sections.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  });

  await test.step('the admin chooses the studio and the file manager for new accounts', async () => {
    await page.getByRole('link', { name: 'Other settings' }).click();
    const choice = page.getByRole('radiogroup', { name: /Accounts created on or after/ });
    await expect(choice.getByRole('radio', { name: /The studio only/ })).toBeChecked();
    await choice.getByRole('radio', { name: /The studio and the file manager/ }).click();
    await expect(
      page.getByText('Every account gets the studio and the file manager, whenever it was created.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await page.getByRole('heading', { name: 'Studio and file manager' }).scrollIntoViewIfNeeded();
    await snapEverywhere(page, info, '02-admin-file-manager-choice');
  });
});

test('a colleague who signs up there reaches Files in one click, and Trash, the team folders and a team folder in two', async ({
  browser,
}, info) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const them = await context.newPage();

  await test.step('a colleague signs up, makes a team folder and stars it', async () => {
    await them.goto('/inhouse-sign-up');
    await them.getByLabel('Full name').fill(colleague.name);
    await them.getByLabel('E-mail').fill(colleague.email);
    await them.getByLabel('Password', { exact: true }).fill(colleague.password);
    await them.getByLabel('Confirm password').fill(colleague.password);
    await them.getByRole('button', { name: 'Create an account' }).click();
    await expect(them.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
    await them.getByRole('button', { name: 'Got it' }).click();
    const made = await call(them, 'post', '/api/teams/folders', { name: 'Launch', invitations: [] });
    expect(made.status(), await made.text()).toBe(201);
    const starred = await call(them, 'post', '/api/favourites', { ids: [(await made.json()).data.id] });
    expect(starred.status(), await starred.text()).toBe(204);
  });

  await test.step('Files is one click away, Trash and the team folders two', async () => {
    await them.goto('/user/profile');
    await sidebar(them).getByRole('link', { name: 'Files' }).click();
    await expect(them).toHaveURL(/\/platform\/files$/);
    await expect(fileManager(them).getByRole('link', { name: 'My files' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await snapEverywhere(them, info, '03-my-files');

    await them.goto('/user/profile');
    await sidebar(them).getByRole('link', { name: 'Files' }).click();
    await fileManager(them).getByRole('link', { name: 'Trash' }).click();
    await expect(them.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible();
    await expect(fileManager(them).getByRole('link', { name: 'Trash' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await them.goto('/user/profile');
    await sidebar(them).getByRole('link', { name: 'Files' }).click();
    await fileManager(them).getByRole('link', { name: 'Team folders' }).click();
    await expect(them.getByRole('heading', { name: 'Team folders', level: 1 })).toBeVisible();
    await expect(them.getByText('Launch').first()).toBeVisible();
    await snapEverywhere(them, info, '04-team-folders');

    // The team folder itself is two clicks away too: Files, then the folder in the tree beside the list.
    await them.goto('/user/profile');
    await sidebar(them).getByRole('link', { name: 'Files' }).click();
    await fileManager(them).getByRole('tree').getByText('Launch', { exact: true }).click();
    await expect(them).toHaveURL(/\/platform\/files\/[\w-]+$/);
    await expect(them.getByRole('heading', { name: 'Launch', level: 1 })).toBeVisible();

    await fileManager(them).getByRole('link', { name: 'Favourites' }).click();
    await expect(them.getByRole('heading', { name: 'Favourites', level: 1 })).toBeVisible();
    await expect(them.getByText('Launch').first()).toBeVisible();
    await snapEverywhere(them, info, '05-favourites');
  });

  await test.step('on a phone, the drawer reaches Trash in two taps', async () => {
    await them.setViewportSize({ width: 390, height: 844 });
    await them.goto('/user/profile');
    await them.getByRole('button', { name: 'Open the menu' }).click();
    const drawer = them.getByRole('dialog');
    await expect(drawer.getByRole('link', { name: 'Trash' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await them.emulateMedia({ colorScheme: scheme });
      await snap(them, info, `06-phone-drawer-${scheme}`);
    }
    await them.emulateMedia({ colorScheme: 'light' });
    await drawer.getByRole('link', { name: 'Trash' }).click();
    await expect(them.getByRole('heading', { name: 'Trash', level: 1 })).toBeVisible();
    await expect(fileManager(them).getByRole('link', { name: 'Trash' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  await context.close();
});

test.afterAll(async ({ browser }) => {
  // Later journeys meet the instance as the description has it.
  const page = await browser.newPage();
  await signIn(page, admin);
  const reset = await call(page, 'post', '/api/admin/settings', {
    settings: { file_manager_for_all: false },
  });
  expect(reset.status()).toBe(204);
  await page.close();
});
