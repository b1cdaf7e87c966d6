import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { uploaded } from '../files/files-harness';
import { createShare, TestClock } from './sharing-harness';

describeEachDatabase('share pages for link previews', (kind) => {
  let t: TestApp;
  let owner: TestAgent;
  let webDist: string;
  const clock = new TestClock();

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><head><title>Atelier</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestApp({ database: kind, env: { WEB_DIST_DIR: webDist }, clock: clock.now });
    ({ agent: owner } = await signedInAgent(t.app));
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** The page as a crawler fetches it: no cookies, no scripts run. */
  const crawl = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode, url).toBe(200);
    expect(res.body).toContain('<div id="root">');
    return res.body;
  };
  const meta = (page: string, key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(page)?.[1];
  /** The page any address gets: the instance's own preview, nothing of a link (no address, no image). */
  const expectOnlyTheSite = (page: string) => {
    expect(page.match(/og:title/g)).toHaveLength(1);
    expect(meta(page, 'og:title')).toBe('Atelier');
    expect(meta(page, 'og:url')).toBeUndefined();
    expect(meta(page, 'og:image')).toBeUndefined();
    expect(page).not.toContain('/share/');
  };

  it("gives a shared image's page its name and thumbnail, on every page of the link", async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const file = await uploaded(owner, png, { name: 'Beach <at> "dawn".png' });
    await t.deps.thumbnails.generate(file.id);
    const link = await createShare(owner, { id: file.id, type: 'file', permission: 'visitor' });

    // The product page too (this build has no product.html: the app's page carries them).
    for (const url of [`/share/${link.token}`, `/share/${link.token}/file`, `/share/${link.token}/product`]) {
      const page = await crawl(url);
      expect(meta(page, 'og:title')).toBe('Beach &lt;at&gt; &quot;dawn&quot;.png');
      expect(meta(page, 'og:url')).toBe(`http://atelier.test/share/${link.token}`);
      expect(meta(page, 'og:image')).toBe(`http://atelier.test/thumbnail/md/${file.id}/shared/${link.token}`);
      expect(meta(page, 'twitter:card')).toBe('summary_large_image');
      expect(page.indexOf('og:title')).toBeLessThan(page.indexOf('</head>'));
    }
    // The image it names is served to the crawler, which has no session of any kind.
    const image = await t.app.inject({ method: 'GET', url: `/thumbnail/md/${file.id}/shared/${link.token}` });
    expect(image.statusCode).toBe(200);
    // Fetching the page is not a view: only the share page's detail call counts.
    expect((await owner.get(`/api/share/${link.token}`)).json().data.attributes.views).toBe(0);
  });

  it("pastes a name with replacement patterns ($`, $', $&) into the head as it is, escaped", async () => {
    const name = "a$`b$'c$&<x>.png";
    const file = await uploaded(owner, Buffer.from('not an image'), { name });
    const link = await createShare(owner, { id: file.id, type: 'file', permission: 'visitor' });
    const page = await crawl(`/share/${link.token}`);
    expect(meta(page, 'og:title')).toBe('a$`b$&#39;c$&amp;&lt;x&gt;.png');
    // The page is the template in the instance's brand with the tags before </head>: no piece of it twice.
    expect(page.match(/<head>/g)).toHaveLength(1);
    expect(page.match(/<\/head>/g)).toHaveLength(1);
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page.match(/og:title/g)).toHaveLength(1);
    expect(page.match(/<div id="root">/g)).toHaveLength(1);
    expect(page.startsWith('<!doctype html><html lang="en"><head><title>Atelier</title><meta ')).toBe(true);
    expect(
      page.endsWith(
        '<meta name="twitter:card" content="summary"></head><body><div id="root"></div></body></html>',
      ),
    ).toBe(true);
  });

  it("gives a folder's page its name without an image", async () => {
    const id = (await owner.post('/api/create-folder', { name: 'Summer 2026' })).json().data.id;
    const link = await createShare(owner, { id, type: 'folder', permission: 'visitor' });
    const page = await crawl(`/share/${link.token}/files/${id}`);
    expect(meta(page, 'og:title')).toBe('Summer 2026');
    expect(meta(page, 'og:image')).toBeUndefined();
    expect(meta(page, 'twitter:card')).toBe('summary');
  });

  it('says nothing of a protected, expired, revoked, trashed or unknown link', async () => {
    const folder = async (name: string) => (await owner.post('/api/create-folder', { name })).json().data.id;
    const trashedId = await folder('Trashed plans');
    const trashed = await createShare(owner, { id: trashedId, type: 'folder', permission: 'visitor' });
    await owner.post('/api/remove', { items: [{ id: trashedId, type: 'folder' }] });
    const secret = await createShare(owner, {
      id: await folder('Secret plans'),
      type: 'folder',
      permission: 'visitor',
      isPassword: true,
      password: 'preview secret',
    });
    const expiring = await createShare(owner, {
      id: await folder('Expiring plans'),
      type: 'folder',
      permission: 'visitor',
      expiration: 1,
    });
    const revoked = await createShare(owner, {
      id: await folder('Revoked plans'),
      type: 'folder',
      permission: 'visitor',
    });
    await owner.post('/api/share/revoke', { tokens: [revoked.token], _method: 'delete' });
    clock.advanceHours(1);

    for (const token of [secret.token, expiring.token, revoked.token, trashed.token, 'Z'.repeat(32)]) {
      const page = await crawl(`/share/${token}`);
      expectOnlyTheSite(page);
      expect(page).not.toContain('plans');
    }
  });

  it('says nothing of any link in maintenance mode, where only the maintenance page is served', async () => {
    const id = (await owner.post('/api/create-folder', { name: 'Closed for maintenance' })).json().data.id;
    const link = await createShare(owner, { id, type: 'folder', permission: 'visitor' });
    await t.deps.settings.set({ maintenance: true });
    try {
      const page = await crawl(`/share/${link.token}`);
      expectOnlyTheSite(page);
      expect(page).not.toContain('Closed for maintenance');
      // The web app itself is served: it shows the maintenance page.
      await crawl('/');
    } finally {
      await t.deps.settings.set({ maintenance: false });
    }
  });
});
