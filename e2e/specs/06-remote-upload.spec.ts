import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '../support/test';
import { call, ensureInstalled, registerAndSignIn } from '../support/api';
import { snap } from '../support/snap';
import { sha256 } from '../support/zip';

test.describe.configure({ mode: 'serial' });

const photo = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const lookbook = Buffer.from('%PDF-1.4\n% spring lookbook\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const notes = Buffer.from('Fitting on Tuesday: bring the silver clasp.\n');

const row = (page: Page, name: string) => page.getByTestId('item-row').filter({ hasText: name });

test('a member pastes three addresses; the files arrive in the folder while the bar counts them', async ({
  page,
}, info) => {
  // The sites the files come from: one web server on loopback, which the e2e server's
  // REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES lets it reach. The notes wait until the test lets them go,
  // so the bar can be seen part way.
  let releaseNotes: () => void = () => undefined;
  const notesHeld = new Promise<void>((resolve) => (releaseNotes = resolve));
  const send = (response: ServerResponse, body: Buffer, headers: Record<string, string> = {}) =>
    response.writeHead(200, { 'content-length': String(body.length), ...headers }).end(body);
  const site = createServer((request, response) => {
    if (request.url === '/catalogue/spring-lookbook.pdf') send(response, lookbook);
    else if (request.url === '/images/ring.png') send(response, photo);
    else if (request.url === '/download?id=42')
      void notesHeld.then(() =>
        send(response, notes, { 'content-disposition': 'attachment; filename="fitting notes.txt"' }),
      );
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await ensureInstalled(page);
    await registerAndSignIn(page, {
      name: 'Remy Remote',
      email: `remy-${Date.now()}@atelier.test`,
      password: 'remy-password-1',
    });
    await page.goto('/platform/files');
    await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

    const dialog = page.getByRole('dialog', { name: 'Upload from URLs' });
    await test.step('the addresses are pasted, one a line, and checked before anything is sent', async () => {
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Upload from URLs' }).click();
      const box = dialog.getByLabel('Addresses');
      await box.fill(`${origin}/catalogue/spring-lookbook.pdf\nftp://files.example.com/ring.png`);
      await dialog.getByRole('button', { name: 'Download' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Line 2 is not an http:// or https:// address.');

      await box.fill(
        [
          `${origin}/catalogue/spring-lookbook.pdf`,
          `${origin}/images/ring.png`,
          '',
          `${origin}/download?id=42`,
        ].join('\n'),
      );
      await expect(dialog.getByText('3 of 50 addresses')).toBeVisible();
      await snap(page, info, '01-remote-dialog');
      await dialog.getByRole('button', { name: 'Download' }).click();
      await expect(dialog).toBeHidden();
    });

    const bar = page.getByTestId('remote-upload-bar');
    await test.step('the bar counts each address as it arrives, and the files join the listing', async () => {
      await expect(bar).toContainText('2 of 3 processed');
      await expect(bar.getByRole('progressbar', { name: 'Remote upload progress' })).toHaveAttribute(
        'aria-valuenow',
        '67',
      );
      await expect(row(page, 'spring-lookbook.pdf')).toBeVisible();
      await expect(row(page, 'ring.png')).toBeVisible();
      await snap(page, info, '02-remote-progress');
    });

    await test.step('the last one arrives: the finished toast, the notification, and the bar goes', async () => {
      releaseNotes();
      await expect(row(page, 'fitting notes.txt')).toBeVisible();
      await expect(page.getByText('Your files from URLs were downloaded.')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Remote upload finished' })).toBeVisible();
      await expect(page.getByTestId('notification-badge')).toHaveText('1');
      await snap(page, info, '03-remote-done');
      await expect(bar).toBeHidden();
    });

    await test.step('each file holds the bytes the site sent', async () => {
      const listed = (await (await call(page, 'get', '/api/browse/folders/all')).json()) as {
        data: { id: string; attributes: { name: string; mimetype: string } }[];
      };
      const byName = new Map(listed.data.map((item) => [item.attributes.name, item]));
      expect(byName.get('ring.png')?.attributes.mimetype).toBe('image/png');
      for (const [name, bytes] of [
        ['spring-lookbook.pdf', lookbook],
        ['ring.png', photo],
        ['fitting notes.txt', notes],
      ] as const) {
        const file = await call(page, 'get', `/file/${byName.get(name)!.id}`);
        expect(sha256(await file.body()), name).toBe(sha256(bytes));
      }
    });
  } finally {
    releaseNotes();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  }
});
