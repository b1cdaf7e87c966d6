import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, registerAndSignIn, type Person } from '../support/api';
import { snap } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const grace: Person = {
  name: 'Grace Hopper',
  email: `grace-${stamp}@atelier.test`,
  password: 'grace-password-1',
};
const newPassword = 'grace-password-2';

/** A wide photo, red on its left half and blue on its right, drawn by the browser as a PNG. */
async function widePhoto(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 300;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#d02020';
    context.fillRect(0, 0, 300, 300);
    context.fillStyle = '#2030d0';
    context.fillRect(300, 0, 300, 300);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** The colour at a point of an avatar image as loaded, sampled through a canvas. */
function pixelAt(page: Page, src: string, x: number, y: number): Promise<[number, number, number]> {
  return page.evaluate(
    async ([url, px, py]) => {
      const image = new Image();
      image.src = url as string;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const [r, g, b] = context.getImageData(px as number, py as number, 1, 1).data;
      return [r!, g!, b!] as [number, number, number];
    },
    [src, x, y] as const,
  );
}

test('a person crops and uploads a photo, sees it in the sidebar and on their share page, then removes it', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, grace);
  await page.goto('/user/profile');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Got it' }).click();
  const pictures = page.locator('img[alt="Grace Hopper"]');
  await expect(pictures).toHaveCount(0);

  await page.locator('input[type="file"]').setInputFiles({
    name: 'holiday.png',
    mimeType: 'image/png',
    buffer: await widePhoto(page),
  });
  const dialog = page.getByRole('dialog', { name: 'Crop your photo' });
  await expect(dialog).toBeVisible();
  await snap(page, info, 'profile-crop');
  await dialog.getByRole('button', { name: 'Save photo' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Your new photo is saved.')).toBeVisible();

  // The sidebar card, the header and the page itself show the picture instead of the letter.
  await expect(pictures).toHaveCount(3);
  const sidebar = page.locator('aside img[alt="Grace Hopper"]').first();
  await expect.poll(() => sidebar.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(64);
  // The centred square of the wide photo: red on its left, blue on its right.
  const large = (await page.locator('main img[alt="Grace Hopper"]').getAttribute('src'))!;
  const [left, right] = [await pixelAt(page, large, 20, 64), await pixelAt(page, large, 108, 64)];
  expect(left[0]).toBeGreaterThan(150);
  expect(left[2]).toBeLessThan(100);
  expect(right[2]).toBeGreaterThan(150);
  expect(right[0]).toBeLessThan(100);
  await snap(page, info, 'profile-with-photo');

  // A visitor of Grace's link sees her picture beside her name.
  const folder = (await (await call(page, 'post', '/api/create-folder', { name: 'Portfolio' })).json()).data
    .id;
  const share = await call(page, 'post', '/api/share', { id: folder, type: 'folder', permission: 'visitor' });
  expect(share.status()).toBe(201);
  const visitor = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await visitor.goto(`/share/${(await share.json()).data.id}`);
  const owner = visitor.locator('img[alt="Grace Hopper"]');
  await expect(owner).toBeVisible();
  await expect.poll(() => owner.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(32);
  await visitor.context().close();

  await page.getByRole('button', { name: 'Remove photo' }).click();
  await expect(page.getByText('Your photo was removed.')).toBeVisible();
  await expect(pictures).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Upload photo' })).toBeVisible();
  expect((await page.request.get(large)).status()).toBe(404);
});

test('changing the password keeps this browser signed in and signs the other one out', async ({
  page,
  browser,
}, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const other = await (await browser.newContext()).newPage();
  for (const browserPage of [page, other])
    expect(
      (
        await call(browserPage, 'post', '/api/login', { email: grace.email, password: grace.password })
      ).status(),
    ).toBe(200);
  await page.goto('/user/profile');
  await page.getByRole('button', { name: 'Got it' }).click();

  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This is not your current password.')).toBeVisible();
  await snap(page, info, 'profile-password-wrong');

  await page.getByLabel('Current password').fill(grace.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText(
      'Your password was changed. Other devices were signed out, and your app passwords were revoked.',
    ),
  ).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await other.goto('/user/profile');
  await expect(other).toHaveURL(/\/sign-in/);
  await other.getByLabel('E-mail').fill(grace.email);
  await other.getByLabel('Password', { exact: true }).fill(newPassword);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other).toHaveURL(/\/user\/profile$/);
  await other.context().close();
});

test('folder emojis follow the emoji type chosen on the profile', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(
    (await call(page, 'post', '/api/login', { email: grace.email, password: newPassword })).status(),
  ).toBe(200);
  expect((await call(page, 'post', '/api/create-folder', { name: 'Moodboard', emoji: '🎯' })).status()).toBe(
    201,
  );
  const row = page.getByRole('main').getByText('Moodboard').locator('xpath=ancestor::*[@data-item-id][1]');
  const drawn = row.locator('img[alt="🎯"]');

  // Twemoji by default: the graphic is served by the instance itself.
  await page.goto('/platform/files');
  await expect(drawn).toBeVisible();
  await expect.poll(() => drawn.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  await page.goto('/user/profile');
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/user/settings'));
  await page.getByRole('radio', { name: /Your device’s emoji/ }).click();
  expect((await saved).status()).toBe(204);
  await snap(page, info, 'profile-emoji-type');
  await page.goto('/platform/files');
  await expect(row.getByText('🎯')).toHaveClass(/font-emoji/);
  await expect(drawn).toHaveCount(0);
  // The choice is the person's setting, kept by the server.
  await page.reload();
  await expect(row.getByText('🎯')).toHaveClass(/font-emoji/);
});
