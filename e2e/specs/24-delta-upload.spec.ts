import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { expect, test, type Page, type Request } from '../support/test';
import { call, ensureInstalled, listing, registerAndSignIn } from '../support/api';
import { snapEverywhere } from '../support/snap';

const MiB = 1024 * 1024;
const NAME = 'housing.x_b';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Bytes the page sent in the bodies of upload requests (chunk form and delta upload), by path. */
function uploadBytes(page: Page) {
  const sent = new Map<string, number>();
  const finished: Promise<void>[] = [];
  const count = (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api/upload/')) return;
    // A body sent from a file (a block PUT is a slice of it) has no size in the browser's report of
    // the request; the length it was sent with is in its headers.
    finished.push(
      Promise.all([request.sizes(), request.allHeaders()]).then(([{ requestBodySize }, headers]) => {
        const route = /^\/api\/upload\/blocks\/[0-9a-f]{64}$/.test(path) ? 'block PUT' : path;
        const bytes = Math.max(requestBodySize, Number(headers['content-length'] ?? 0));
        sent.set(route, (sent.get(route) ?? 0) + bytes);
      }),
    );
  };
  page.on('requestfinished', count);
  return {
    /** What was sent since the last call, once every finished request's size is known. */
    async take() {
      await Promise.all(finished);
      const taken = new Map(sent);
      sent.clear();
      finished.length = 0;
      return taken;
    },
  };
}

async function fileOnDisk(path: string, bytes: Buffer): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}

const total = (sent: Map<string, number>) => [...sent.values()].reduce((a, b) => a + b, 0);

test('a large file replaced after a small edit sends only the blocks that changed', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await ensureInstalled(page);
  await registerAndSignIn(page, {
    name: 'Dara Delta',
    email: 'dara@atelier.test',
    password: 'dara-password-1',
  });
  await page.goto('/platform/files');
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  const first = randomBytes(24 * MiB);
  const second = Buffer.from(first);
  second.write('flange 12.5 mm -> 14 mm', 9 * MiB + 4321, 'latin1');
  second.write('hole pattern moved', 17 * MiB + 77, 'latin1');
  const sent = uploadBytes(page);
  const row = page.getByTestId('item-row').filter({ hasText: NAME });
  const stored = async () => {
    const file = (await listing(page)).data.filter((item) => item.attributes.name === NAME);
    expect(file).toHaveLength(1);
    return sha256(Buffer.from(await (await call(page, 'get', `/file/${file[0]!.id}`)).body()));
  };

  await test.step('a new file goes by the chunk form', async () => {
    const path = await fileOnDisk(info.outputPath('draft', NAME), Buffer.from('a first draft'));
    await page.getByTestId('upload-files-input').setInputFiles(path);
    await expect(row).toBeVisible({ timeout: 60_000 });
    const bytes = await sent.take();
    expect(bytes.get('/api/upload/chunks')).toBeGreaterThan(0);
    expect(bytes.has('block PUT')).toBe(false);
  });

  await test.step('a 24 MiB file replacing it goes by the delta upload: every block is sent once', async () => {
    const path = await fileOnDisk(info.outputPath('first', NAME), first);
    await page.getByTestId('upload-files-input').setInputFiles(path);
    const prompt = page.getByRole('dialog', { name: 'A file with this name is already here' });
    await prompt.getByRole('button', { name: 'Replace' }).click();
    // Hashing 24 MiB in the worker and sending it takes a while on a busy machine.
    await expect.poll(stored, { timeout: 60_000 }).toBe(sha256(first));
    const bytes = await sent.take();
    expect(bytes.has('/api/upload/chunks')).toBe(false);
    expect(bytes.get('block PUT'), JSON.stringify([...bytes])).toBe(first.length);
    expect(bytes.get('/api/upload/blocks/commit')).toBeGreaterThan(0);
  });

  await test.step('the edited file, uploaded again with Replace, sends a few blocks', async () => {
    // The card says what it does while the server is asked which blocks it lacks.
    let release!: () => void;
    const asked = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/upload/blocks/missing', async (route) => {
      await asked;
      await route.continue();
    });
    const path = await fileOnDisk(info.outputPath('second', NAME), second);
    await page.getByTestId('upload-files-input').setInputFiles(path);
    const prompt = page.getByRole('dialog', { name: 'A file with this name is already here' });
    await prompt.getByRole('button', { name: 'Replace' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Finding what changed in file 1 of 1' }),
    ).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByRole('progressbar', { name: 'Progress of finding what changed' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await snapEverywhere(page, info, '01-finding-what-changed');
    release();
    await expect.poll(stored, { timeout: 60_000 }).toBe(sha256(second));
    await page.unroute('**/api/upload/blocks/missing');

    const bytes = await sent.take();
    expect(bytes.has('/api/upload/chunks')).toBe(false);
    // Two edits touch two blocks, or three or four when one lies across a cut: a few MiB of 24.
    const blockBytes = bytes.get('block PUT') ?? 0;
    expect(blockBytes).toBeGreaterThan(0);
    expect(blockBytes).toBeLessThan(first.length / 3);
    expect(total(bytes)).toBeLessThan(first.length / 3);
    await expect(row).toHaveCount(1);
  });

  await test.step('the file lists its earlier bytes as a version', async () => {
    await page
      .getByRole('button', { name: `Actions for ${NAME}` })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Versions', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Details and versions' });
    await expect(dialog.getByRole('listitem')).toHaveCount(3);
    await expect(dialog).toContainText('2 versions');
    await snapEverywhere(page, info, '02-versions');
  });
});
