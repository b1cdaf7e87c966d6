import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '../support/test';
import { boxStl } from '../../apps/server/test/projects/support/models';
import { call, ensureInstalled, registerAndSignIn, setProjectSettings } from '../support/api';
import { snapEverywhere } from '../support/snap';

const frameOf = async (spin: Locator) => (await spin.locator('img').getAttribute('src')) ?? '';

/**
 * How many colours the middle of an element shows on screen: one for an empty canvas, many for a
 * model drawn and lit. Read from a screenshot, so it is what the visitor sees, whatever the GPU.
 */
async function coloursAtMiddle(page: Page, element: Locator): Promise<number> {
  const box = (await element.boundingBox())!;
  const clip = {
    x: box.x + box.width / 4,
    y: box.y + box.height / 4,
    width: box.width / 2,
    height: box.height / 2,
  };
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4)
      colours.add((pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!);
    return colours.size;
  }, png);
}

/** A shop's product page on another site (localhost, where the app is 127.0.0.1) with the embed script in it. */
async function shopWith(snippet: string) {
  const shop = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Maison Orfèvre</title><style>body{margin:0 auto;max-width:760px;padding:24px;font:16px/1.5 Georgia,serif;background:#fbf8f2;color:#2b2118}` +
        `header{border-bottom:1px solid #d8cfc0;margin-bottom:16px}</style></head><body><header><h1>Maison Orfèvre</h1></header>` +
        `<main><h2>Signet ring</h2><p>Solid gold, made to order in our workshop.</p>${snippet}<p><strong>€480</strong> · Add to cart</p></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(shop.address() as AddressInfo).port}/`,
    close: () => {
      shop.closeAllConnections();
      return new Promise<void>((resolve) => shop.close(() => resolve()));
    },
  };
}

test('a project shared as a product page: its link and embed codes in the share dialog; spun, switched between colourways, seen in 3D, embedded in a shop page; a password first, a revocation said', async ({
  page,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Pia Product',
    email: `pia-product-${Date.now()}@atelier.test`,
    password: 'pia-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', { project_name: 'Signet ring' });
  const project = (await created.json()).data;
  // The draft engine, small: a still and a turntable of 36 frames for the spin, in two colourways.
  await setProjectSettings(page, project.id, {
    category_id: 'ring',
    engine: 'draft',
    resolution: { width: 192, height: 192 },
    stills: 1,
    video: true,
    turntable: { seconds: 3, fps: 12 },
    variants: [
      { id: 'yellow-gold', name: 'Yellow gold', finishes: { '*': { finish: 'yellow-gold' } } },
      { id: 'white-gold', name: 'White gold', finishes: { '*': { finish: 'white-gold' } } },
    ],
  });
  await page.goto(`/projects/files/${project.id}`);
  await page.getByRole('button', { name: 'Got it' }).click();
  await page
    .getByTestId('project-upload-input')
    .setInputFiles({ name: 'signet.stl', mimeType: 'model/stl', buffer: boxStl([18, 18, 4]) });
  await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Render all' }).click();

  let token = '';
  let script = '';
  await test.step('the owner shares the project: the dialog gives its product page and the two embed codes', async () => {
    await page.goto('/platform/files');
    await page.getByRole('button', { name: 'Actions for Signet ring' }).first().click();
    await page.getByRole('menuitem', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “Signet ring”' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const productLink = await dialog.getByRole('textbox', { name: 'Product page' }).inputValue();
    token = /\/share\/([A-Za-z0-9]+)\/product$/.exec(productLink)![1]!;
    expect(productLink).toBe(`${baseURL}/share/${token}/product`);
    const embed = dialog.getByRole('region', { name: 'Embed on your shop' });
    await expect(embed).toContainText('keeps this link’s rules');
    await expect(embed.getByRole('textbox', { name: 'Frame (iframe)' })).toHaveValue(
      new RegExp(`^<iframe src="${baseURL}/share/${token}/product\\?embed=1"`),
    );
    script = await embed.getByRole('textbox', { name: 'Script (embed.js)' }).inputValue();
    expect(script).toBe(
      `<script async src="${baseURL}/embed.js" data-product="${token}" data-title="Signet ring"></script>`,
    );
    await snapEverywhere(page, info, '00-share-dialog');
    await embed.getByRole('textbox', { name: 'Script (embed.js)' }).scrollIntoViewIfNeeded();
    await snapEverywhere(page, info, '00-share-dialog-embed');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  // Both colourways rendered: the page has a view of each.
  await expect
    .poll(
      async () => {
        const answer = await call(page, 'get', `/api/sharing/product/${token}`);
        return answer.ok() ? (await answer.json()).data.attributes.views.length : 0;
      },
      { timeout: 360_000 },
    )
    .toBe(2);
  const views = (await (await call(page, 'get', `/api/sharing/product/${token}`)).json()).data.attributes
    .views as Array<{ variant: { id: string }; stills: string[]; spin: string[]; glb: string }>;
  expect(views.map((view) => view.variant.id)).toEqual(['yellow-gold', 'white-gold']);

  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.setViewportSize({ width: 1440, height: 900 });
  const spin = visitor.getByTestId('product-spin');

  await test.step('an anonymous visitor spins it: the frame changes with the drag and the arrow keys', async () => {
    await visitor.goto(`/share/${token}/product`);
    await expect(visitor.getByRole('heading', { name: 'Signet ring' })).toBeVisible();
    await expect(spin).toHaveAttribute('aria-valuenow', '1');
    const first = await frameOf(spin);
    const box = (await spin.boundingBox())!;
    await visitor.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await visitor.mouse.down();
    await visitor.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2, { steps: 6 });
    await visitor.mouse.up();
    await expect(spin).toHaveAttribute('aria-valuenow', '13');
    await expect.poll(() => frameOf(spin)).not.toBe(first);
    await spin.press('ArrowLeft');
    await expect(spin).toHaveAttribute('aria-valuenow', '12');
    await expect(visitor.getByRole('link', { name: /View in your room \(iPhone/ })).toHaveAttribute(
      'rel',
      'ar',
    );
    await snapEverywhere(visitor, info, '01-product-page');
  });

  await test.step('switches the colourway: the hero still and the spin frames are the other colourway’s', async () => {
    const hero = visitor.getByRole('img', { name: 'Still 1' });
    await expect(hero).toHaveAttribute('src', views[0]!.stills[0]!);
    const colourways = visitor.getByRole('group', { name: 'Colourways' });
    await expect(colourways.getByRole('button', { name: 'Yellow gold' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await colourways.getByRole('button', { name: 'White gold' }).click();
    await expect(colourways.getByRole('button', { name: 'White gold' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(hero).toHaveAttribute('src', views[1]!.stills[0]!);
    // The spin starts again from the other colourway's first frame, and turns through its frames.
    await expect(spin).toHaveAttribute('aria-valuenow', '1');
    expect(await frameOf(spin)).toBe(views[1]!.spin[0]);
    await spin.press('ArrowRight');
    await expect.poll(() => frameOf(spin)).toBe(views[1]!.spin[1]);
    await snapEverywhere(visitor, info, '02-product-colourway');
  });

  await test.step('opens the 3D view: the model is drawn, and wears the colourway switched to without loading again', async () => {
    await visitor.getByRole('button', { name: 'View in 3D' }).click();
    const model = visitor.getByTestId('product-3d');
    await expect(model).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(model).toHaveAttribute('data-variant', 'white-gold', { timeout: 30_000 });
    await expect.poll(() => coloursAtMiddle(visitor, model), { timeout: 30_000 }).toBeGreaterThan(20);
    const white = await visitor.screenshot({ clip: (await model.boundingBox())! });
    const glbLoads: string[] = [];
    visitor.on('request', (request) => request.url().endsWith(views[0]!.glb) && glbLoads.push(request.url()));
    await visitor
      .getByRole('group', { name: 'Colourways' })
      .getByRole('button', { name: 'Yellow gold' })
      .click();
    await expect(model).toHaveAttribute('data-variant', 'yellow-gold');
    await expect
      .poll(async () => (await visitor.screenshot({ clip: (await model.boundingBox())! })).equals(white), {
        timeout: 30_000,
      })
      .toBe(false);
    expect(glbLoads).toEqual([]);
    await snapEverywhere(visitor, info, '03-product-3d');
  });

  const shop = await shopWith(script);
  try {
    await test.step('the script in a shop’s page (another site) frames the compact page: the spin, the colourways, an Open link', async () => {
      await visitor.goto(shop.url);
      const frame = visitor.frameLocator('iframe[title="Signet ring"]');
      const embedded = frame.getByTestId('product-spin');
      await expect(embedded).toBeVisible();
      await expect
        .poll(() => embedded.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      // No site frame inside: no header, no footer, the page's own "Open" link to the full page.
      await expect(frame.getByRole('banner')).toHaveCount(0);
      await expect(frame.getByRole('link', { name: 'Open the product page' })).toHaveAttribute(
        'href',
        `${baseURL}/share/${token}/product`,
      );
      await embedded.press('ArrowRight');
      await expect(embedded).toHaveAttribute('aria-valuenow', '2');
      await frame.getByRole('button', { name: 'White gold' }).click();
      await expect.poll(() => frameOf(embedded)).toBe(views[1]!.spin[0]);
      // The page fills the frame without a scroll bar of its own.
      const inside = visitor.frames().find((one) => one.url().includes('embed=1'))!;
      expect(
        await inside.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight + 1),
      ).toBe(true);
      await snapEverywhere(visitor, info, '04-embed-in-shop');
    });

    await test.step('a password asks first; a revoked link says so, on its page and in the shop’s frame', async () => {
      await call(page, 'post', `/api/share/${token}`, {
        _method: 'patch',
        isPassword: true,
        password: 'secret-pass',
      });
      // A shop's frame cannot keep the password's session (another site's cookie): it sends to the page.
      await visitor.goto(shop.url);
      const frame = visitor.frameLocator('iframe[title="Signet ring"]');
      await expect(frame.getByRole('heading', { name: 'This product has a password' })).toBeVisible();
      await expect(frame.getByRole('link', { name: 'Open the product page' })).toBeVisible();
      await snapEverywhere(visitor, info, '05-embed-password');

      const stranger = await (
        await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } })
      ).newPage();
      await stranger.goto(`/share/${token}/product`);
      // The page's own entry sends to the app's password gate: a second page load, slow on a busy machine.
      await expect(stranger.getByLabel('Password')).toBeVisible({ timeout: 30_000 });
      await snapEverywhere(stranger, info, '06-product-password');
      await stranger.getByLabel('Password').fill('secret-pass');
      await stranger.keyboard.press('Enter');
      await expect(stranger.getByTestId('product-spin')).toBeVisible();
      await call(page, 'post', '/api/share/revoke', { tokens: [token], _method: 'delete' });
      await stranger.reload();
      await expect(stranger.getByRole('heading', { name: 'This link was turned off' })).toBeVisible();
      await snapEverywhere(stranger, info, '07-product-revoked');
      await visitor.goto(shop.url);
      await expect(
        visitor
          .frameLocator('iframe[title="Signet ring"]')
          .getByRole('heading', { name: 'This link was turned off' }),
      ).toBeVisible();
    });
  } finally {
    await shop.close();
  }
});
