import { expect, test, type Page } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snap } from '../support/snap';

const PHONE = { width: 390, height: 844 };

/** Creates through the API as the page's session and answers the new resource's id. */
async function created(page: Page, path: string, body: unknown): Promise<string> {
  const answer = await call(page, 'post', path, body);
  expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
  return (await answer.json()).data.id as string;
}

/** How far the page reaches past the phone's width: 0 or less when nothing scrolls sideways. */
const overflow = (page: Page) =>
  page.evaluate((width) => document.documentElement.scrollWidth - width, PHONE.width);

test('no main screen scrolls sideways on a 390 px phone', async ({ page }, info) => {
  test.setTimeout(600_000);
  await ensureInstalled(page);
  await signIn(page, admin);
  const stamp = Date.now();
  const folder = await created(page, '/api/create-folder', { name: `Phone check ${stamp}` });
  const share = await created(page, '/api/share', { id: folder, type: 'folder', permission: 'visitor' });
  const request = await created(page, '/api/file-request', { folder_id: folder, name: 'Supplier photos' });
  const team = await created(page, '/api/teams/folders', { name: `Phone team ${stamp}`, invitations: [] });
  const project = await created(page, '/api/create-project', { project_name: `Phone project ${stamp}` });

  const screens: [string, string][] = [
    ['files', '/platform/files'],
    ['folder', `/platform/files/${folder}`],
    ['recent-uploads', '/platform/recent-uploads'],
    ['favourites', '/platform/favourites'],
    ['shared-with-me', '/platform/shared-with-me'],
    ['team-folders', '/platform/team-folders'],
    ['team-folder', `/platform/team-folders/${team}`],
    ['shared-links', '/platform/shared'],
    ['upload-requests', '/platform/upload-requests'],
    ['trash', '/platform/trash'],
    ['profile', '/user/profile'],
    ['storage', '/user/settings/storage'],
    ['billing', '/user/settings/billing'],
    ['studio-settings', '/user/settings/studio'],
    ['admin-dashboard', '/admin/dashboard'],
    ['admin-users', '/admin/users'],
    ['admin-settings', '/admin/settings'],
    ['projects', '/projects'],
    ['project', `/projects/files/${project}`],
    ['gallery', '/gallery/files'],
    ['share-page', `/share/${share}`],
    ['request-page', `/request/${request}/upload`],
  ];

  await page.setViewportSize(PHONE);
  const wide: string[] = [];
  for (const [name, path] of screens) {
    await page.goto(path);
    // Live pages (a project's renders) keep a request open: settle for a while, not for silence.
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
    await expect(page.locator('main, [role="main"]').first()).toBeVisible();
    await snap(page, info, `${name}-phone`);
    const extra = await overflow(page);
    if (extra > 0) wide.push(`${path} is ${extra} px wider than the phone`);
  }
  expect(wide).toEqual([]);
});
