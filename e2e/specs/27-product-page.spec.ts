import { expect, test, type Page } from '@playwright/test';
import { boxStl } from '../../apps/server/test/projects/support/models';
import { call, ensureInstalled, registerAndSignIn, setProjectSettings } from '../support/api';
import { snapEverywhere } from '../support/snap';

async function spinFrame(page: Page): Promise<string> {
  return (await page.getByTestId('product-spin').locator('img').getAttribute('src')) ?? '';
}

test('a project shared as a product page: spun by dragging and the arrow keys, its 3D view opened; a password first, a revocation said', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(400_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Pia Product',
    email: `pia-product-${Date.now()}@atelier.test`,
    password: 'pia-password-1',
  });
  const created = await call(page, 'post', '/api/create-project', { project_name: 'Signet ring' });
  const project = (await created.json()).data;
  // The draft engine, small: a still, and a turntable of 36 frames for the spin.
  await setProjectSettings(page, project.id, {
    category_id: 'ring',
    engine: 'draft',
    resolution: { width: 256, height: 256 },
    stills: 1,
    video: true,
    turntable: { seconds: 3, fps: 12 },
    variants: [{ id: 'rose-gold', name: 'Rose gold', finishes: { '*': { finish: 'rose-gold' } } }],
  });
  await page.goto(`/projects/files/${project.id}`);
  await page.getByRole('button', { name: 'Got it' }).click();
  await page
    .getByTestId('project-upload-input')
    .setInputFiles({ name: 'signet.stl', mimeType: 'model/stl', buffer: boxStl([18, 18, 4]) });
  await expect(page.getByTestId('project-input')).toHaveCount(1, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Render all' }).click();

  const shared = await call(page, 'post', '/api/share', {
    id: project.attributes.folder_id,
    type: 'folder',
    permission: 'visitor',
  });
  const token: string = (await shared.json()).data.attributes.token;
  await expect
    .poll(async () => (await call(page, 'get', `/api/sharing/product/${token}`)).status(), {
      timeout: 300_000,
    })
    .toBe(200);

  const visitorContext = await browser.newContext({ baseURL: info.project.use.baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.setViewportSize({ width: 1440, height: 900 });

  await test.step('an anonymous visitor spins it: the frame changes with the drag and the arrow keys', async () => {
    await visitor.goto(`/share/${token}/product`);
    await expect(visitor.getByRole('heading', { name: 'Signet ring' })).toBeVisible();
    const spin = visitor.getByTestId('product-spin');
    await expect(spin).toHaveAttribute('aria-valuenow', '1');
    const first = await spinFrame(visitor);
    const box = (await spin.boundingBox())!;
    await visitor.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await visitor.mouse.down();
    await visitor.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2, { steps: 6 });
    await visitor.mouse.up();
    await expect(spin).toHaveAttribute('aria-valuenow', '13');
    await expect.poll(() => spinFrame(visitor)).not.toBe(first);
    await spin.press('ArrowLeft');
    await expect(spin).toHaveAttribute('aria-valuenow', '12');
    await expect(visitor.getByRole('link', { name: /View in your room \(iPhone/ })).toHaveAttribute(
      'rel',
      'ar',
    );
    await snapEverywhere(visitor, info, '01-product-page');
  });

  await test.step('opens the 3D view and switches the colourway', async () => {
    await visitor.getByRole('button', { name: 'View in 3D' }).click();
    await expect(visitor.getByTestId('product-3d')).toHaveAttribute('data-state', /ready|failed/, {
      timeout: 60_000,
    });
    await snapEverywhere(visitor, info, '02-product-3d');
  });

  await test.step('a password asks first; a revoked link says so', async () => {
    await call(page, 'post', `/api/share/${token}`, {
      _method: 'patch',
      isPassword: true,
      password: 'secret-pass',
    });
    const stranger = await (await browser.newContext({ baseURL: info.project.use.baseURL })).newPage();
    await stranger.goto(`/share/${token}/product`);
    await expect(stranger.getByLabel('Password')).toBeVisible();
    await snapEverywhere(stranger, info, '03-product-password');
    await stranger.getByLabel('Password').fill('secret-pass');
    await stranger.keyboard.press('Enter');
    await expect(stranger.getByTestId('product-spin')).toBeVisible();
    await call(page, 'post', '/api/share/revoke', { tokens: [token], _method: 'delete' });
    await stranger.reload();
    await expect(stranger.getByRole('heading', { name: 'This link was turned off' })).toBeVisible();
    await snapEverywhere(stranger, info, '04-product-revoked');
  });
});
