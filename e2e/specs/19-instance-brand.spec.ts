import { expect, test, type Browser, type Locator, type Page } from '../support/test';
import { admin, call, ensureInstalled, signIn } from '../support/api';
import { snap, snapEverywhere } from '../support/snap';

test.describe.configure({ mode: 'serial' });

const NAME = 'Studio North';
/** A page's first visit loads its code: on a busy machine that takes a while. */
const FIRST_LOAD = { timeout: 20_000 };
/** A deep teal: readable as it is on light paper, lightened for the dark theme. */
const ACCENT = '#0f766e';

/** A wide logo drawn by the browser: a tile and the studio's name, in ink for light or paper for dark. */
async function logoPng(page: Page, ink: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((color) => {
    const canvas = document.createElement('canvas');
    canvas.width = 720;
    canvas.height = 160;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0f766e';
    context.beginPath();
    context.roundRect(8, 24, 112, 112, 28);
    context.fill();
    context.fillStyle = '#ffffff';
    context.beginPath();
    context.moveTo(64, 44);
    context.lineTo(100, 116);
    context.lineTo(28, 116);
    context.fill();
    context.fillStyle = color;
    context.font = 'bold 76px sans-serif';
    context.textBaseline = 'middle';
    context.fillText('Studio North', 148, 84);
    return canvas.toDataURL('image/png');
  }, ink);
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** The background colour of an element as `#rrggbb`. */
const backgroundOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const [r, g, b] = getComputedStyle(element).backgroundColor.match(/\d+/g)!.map(Number);
    return `#${[r, g, b].map((c) => c!.toString(16).padStart(2, '0')).join('')}`;
  });

/** A browser of its own, with nobody signed in and the cookie notice already answered. */
async function anonymousVisitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => localStorage.setItem('atelier.cookie_disclaimer_dismissed', '1'));
  return context.newPage();
}

/** The header's logo: the light image in the light theme, the dark one in the dark theme. */
async function expectLogo(page: Page, config: { logo_horizontal: string; logo_horizontal_dark: string }) {
  const shown = (src: string) => page.locator(`header img[src="${src}"]`).filter({ visible: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(shown(config.logo_horizontal_dark).first()).toBeVisible();
  await expect(shown(config.logo_horizontal)).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'light' });
  const logo = shown(config.logo_horizontal).first();
  await expect(logo).toBeVisible();
  await expect(shown(config.logo_horizontal_dark)).toHaveCount(0);
  await expect(logo).toHaveAttribute('alt', NAME);
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(720);
}

test("an admin makes the instance the studio's own; a client sees its name, logo and colour on the homepage, a share and an upload request", async ({
  page,
  browser,
}, info) => {
  // Eight screens at two sizes in two themes.
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await signIn(page, admin);
  const before = (await (await call(page, 'get', '/api/config')).json()).app;

  await test.step('the admin sets the name, the description and the accent, previewed live in both themes', async () => {
    await page.goto('/admin/settings/appearance');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await page.getByLabel('App title').fill(NAME);
    await page
      .getByLabel('Description', { exact: true })
      .fill('Product renders and file exchange for our clients.');
    const accent = page.getByRole('textbox', { name: 'Accent colour', exact: true });
    // A colour typed wrong is said at once.
    await accent.fill('teal');
    await expect(page.getByText('Enter a colour as # and six hexadecimal digits')).toBeVisible();
    await accent.fill(ACCENT);
    const light = page.getByTestId('accent-preview-light');
    const dark = page.getByTestId('accent-preview-dark');
    await expect(light).toContainText(`${ACCENT} as picked`);
    await expect(dark).toContainText('Adjusted to #');
    await expect(dark).toContainText('so text stays readable');
    await expect(light).toContainText(NAME);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    // The admin's own pages wear the colour at once (away from the pointer, which shows the hover tone).
    await page.mouse.move(0, 0);
    await expect.poll(() => backgroundOf(page.getByRole('button', { name: 'Save changes' }))).toBe(ACCENT);
  });

  await test.step('and uploads the logos for the light and the dark theme', async () => {
    for (const [name, ink] of [
      ['app_logo_horizontal', '#1b1d24'],
      ['app_logo_horizontal_dark', '#f5f2ed'],
    ] as const) {
      const uploader = page.getByTestId(`image-${name}`);
      await uploader.locator('input[type="file"]').setInputFiles({
        name: `${name}.png`,
        mimeType: 'image/png',
        buffer: await logoPng(page, ink),
      });
      await expect(uploader.locator('img')).toBeVisible();
    }
    await snapEverywhere(page, info, '01-appearance');
  });

  const config = (await (await call(page, 'get', '/api/config')).json()).app;
  expect(config).toMatchObject({ name: NAME, accent: ACCENT });

  const folder = (await (await call(page, 'post', '/api/create-folder', { name: 'Spring catalogue' })).json())
    .data.id;
  const share = await call(page, 'post', '/api/share', { id: folder, type: 'folder', permission: 'visitor' });
  expect(share.status()).toBe(201);
  const token = (await share.json()).data.id;
  const request = await call(page, 'post', '/api/file-request', {
    folder_id: null,
    name: 'Drawings for the spring catalogue',
    notes: 'STEP files please.',
  });
  expect(request.status()).toBe(201);
  const requestToken = (await request.json()).data.id;

  const visitor = await anonymousVisitor(browser);

  await test.step('the homepage speaks for the studio: its name, logo, words and colour, and the way in', async () => {
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { level: 1, name: `Welcome to ${NAME}` })).toBeVisible(
      FIRST_LOAD,
    );
    await expect(
      visitor.getByText('Product renders and file exchange for our clients.').first(),
    ).toBeVisible();
    await expect(visitor).toHaveTitle(NAME);
    const signIn = visitor.getByRole('main').getByRole('link', { name: 'Sign in' });
    await expect(signIn).toHaveAttribute('href', '/sign-in');
    await expect.poll(() => backgroundOf(signIn)).toBe(ACCENT);
    await expect(visitor.getByText('npm start')).toHaveCount(0);
    await expectLogo(visitor, config);
    await snapEverywhere(visitor, info, '02-homepage');
  });

  await test.step('before any script runs, the page is already the studio’s: tab, colours, preview', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const bare = await context.newPage();
    await bare.goto('/platform/files');
    await expect(bare).toHaveTitle(NAME);
    await expect(bare.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      'Product renders and file exchange for our clients.',
    );
    await expect(bare.locator('meta[name="theme-color"]').first()).toHaveAttribute('content', ACCENT);
    await expect(bare.locator('style#instance-accent')).toHaveCount(1);
    expect(await bare.locator('style#instance-accent').textContent()).toContain(`--accent:${ACCENT}`);
    await expect(bare.locator('meta[property="og:site_name"]')).toHaveAttribute('content', NAME);
    await context.close();
  });

  await test.step('the share page carries the same brand', async () => {
    await visitor.goto(`/share/${token}`);
    await expect(visitor.getByText('Spring catalogue').first()).toBeVisible(FIRST_LOAD);
    await expect(visitor).toHaveTitle(new RegExp(`${NAME}$`));
    await expectLogo(visitor, config);
    await snapEverywhere(visitor, info, '03-share');
  });

  await test.step('so does the upload request page', async () => {
    await visitor.goto(`/request/${requestToken}/upload`);
    await expect(visitor.getByText('Drawings for the spring catalogue').first()).toBeVisible(FIRST_LOAD);
    await expect(visitor).toHaveTitle(new RegExp(`${NAME}$`));
    await expectLogo(visitor, config);
    await snapEverywhere(visitor, info, '04-upload-request');
  });

  await test.step('in the dark theme the accent is lightened, as the preview said', async () => {
    await visitor.emulateMedia({ colorScheme: 'dark' });
    await visitor.goto('/');
    const signIn = visitor.getByRole('main').getByRole('link', { name: 'Sign in' });
    await expect(signIn).toBeVisible(FIRST_LOAD);
    const darkAccent = await backgroundOf(signIn);
    expect(darkAccent).not.toBe(ACCENT);
    await expect(page.getByTestId('accent-preview-dark')).toContainText(`Adjusted to ${darkAccent}`);
    await visitor.emulateMedia({ colorScheme: 'light' });
  });

  await test.step('a revoked link, the sign-in page and the cookie notice are the studio’s too', async () => {
    const revoked = await call(page, 'post', '/api/share/revoke', { tokens: [token], _method: 'delete' });
    expect(revoked.status()).toBe(204);
    await visitor.goto(`/share/${token}`);
    await expect(visitor.getByRole('heading', { name: 'This link was turned off' })).toBeVisible(FIRST_LOAD);
    await expect(
      visitor.locator(`img[src="${config.logo_horizontal}"]`).filter({ visible: true }),
    ).toBeVisible();
    await snapEverywhere(visitor, info, '05-share-revoked');

    await visitor.goto('/sign-in');
    // Beside the form, on its dark panel, the logo for the dark theme.
    await expect(
      visitor.locator(`aside img[src="${config.logo_horizontal_dark}"]`).filter({ visible: true }),
    ).toBeVisible(FIRST_LOAD);
    await snapEverywhere(visitor, info, '06-sign-in');

    // A first visit in a browser of its own: the notice has not been answered there.
    const newcomer = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await newcomer.goto('/');
    await expect(newcomer.getByRole('complementary', { name: 'Cookie notice' })).toContainText(
      `We use only the cookies ${NAME} needs`,
      FIRST_LOAD,
    );
    await snap(newcomer, info, '07-cookie-notice-phone');
    await newcomer.context().close();
  });

  await test.step('the maintenance page is in the name of the studio', async () => {
    expect(
      (await call(page, 'post', '/api/admin/settings', { settings: { maintenance: true } })).status(),
    ).toBe(204);
    await visitor.goto('/');
    await expect(visitor).toHaveURL(/\/temporary-unavailable$/, FIRST_LOAD);
    await expect(visitor.getByText(`${NAME} is being updated`)).toBeVisible();
    await expect(
      visitor.locator(`header img[src="${config.logo_horizontal}"]`).filter({ visible: true }),
    ).toBeVisible();
    await snapEverywhere(visitor, info, '08-maintenance');
    expect(
      (await call(page, 'post', '/api/admin/settings', { settings: { maintenance: false } })).status(),
    ).toBe(204);
  });

  await visitor.context().close();
  const restored = await call(page, 'post', '/api/admin/settings', {
    settings: {
      app_title: before.name,
      app_description: before.description,
      app_accent_color: null,
      app_logo_horizontal: null,
      app_logo_horizontal_dark: null,
    },
  });
  expect(restored.status()).toBe(204);
});
