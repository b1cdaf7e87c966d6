import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import {
  ACCENT_STYLE_ID,
  accentPalette,
  accentStyleSheet,
  SIGNED_IN_COOKIE,
} from '@atelier/contracts/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/** Shaped as the build writes it, with the built-in brand the server replaces. */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="theme-color" content="#faf7f2" media="(prefers-color-scheme: light)" />
    <meta name="theme-color" content="#16171d" media="(prefers-color-scheme: dark)" />
    <meta
      name="description"
      content="The built-in description."
    />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>Atelier</title>
    <script type="module" crossorigin src="/assets/app-1a2b3c.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
/** The product page's own entry, as the build writes it beside index.html. */
const PRODUCT = INDEX.replace('/assets/app-1a2b3c.js', '/assets/product-4f5e6d.js');
const SCRIPT = 'console.log("atelier");\n'.repeat(200);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built web app as the build leaves it: each text file beside its brotli and gzip copies. */
function writeBuild(root: string) {
  mkdirSync(path.join(root, 'assets'));
  const files = {
    'index.html': INDEX,
    'product.html': PRODUCT,
    'assets/app-1a2b3c.js': SCRIPT,
    'embed.js': SCRIPT,
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(root, name), text);
    writeFileSync(path.join(root, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(root, `${name}.gz`), gzipSync(text));
  }
  // Too small to gain from compression: the build leaves it alone.
  writeFileSync(path.join(root, 'assets', 'tiny-4d5e6f.js'), 'export{};');
  // The scripts of the file manager's screen; and an entry no build writes, which must never be named.
  writeFileSync(
    path.join(root, 'route-preloads.json'),
    JSON.stringify({
      '/platform/files': ['/assets/files-9z8y7x.js', '/assets/layout-7w6v5u.js'],
      '/projects': ['https://elsewhere.example/tracker.js'],
    }),
  );
}

/** An app for the describe's tests that serves a build written for it in a folder of its own. */
function appServingBuild(): { t: TestApp } {
  const served = {} as { t: TestApp };
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-'));
    writeBuild(webDist);
    served.t = await createTestApp({ env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await served.t.close();
    rmSync(webDist, { recursive: true, force: true });
  });
  return served;
}

describe('web app files', () => {
  const served = appServingBuild();

  const get = (url: string, acceptEncoding?: string) =>
    served.t.app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip', async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/app-1a2b3c.js', 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    for (const res of [br, gzip]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(Number(res.headers['content-length'])).toBeLessThan(SCRIPT.length);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it('sends the file as it is without an encoding the browser accepts, or without a smaller copy', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await get('/assets/app-1a2b3c.js', acceptEncoding);
      expect(res.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
    }
    const tiny = await get('/assets/tiny-4d5e6f.js', 'gzip, br');
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export{};');
  });

  it('lets browsers keep fingerprinted assets for a year, compressed or not', async () => {
    for (const acceptEncoding of [undefined, 'gzip', 'br']) {
      const res = await get('/assets/app-1a2b3c.js', acceptEncoding);
      expect(res.headers['cache-control'], acceptEncoding).toBe(IMMUTABLE);
    }
  });

  it('sets no cookie on fingerprinted assets, which shared caches then keep; the page sets the token', async () => {
    for (const acceptEncoding of [undefined, 'br']) {
      const res = await get('/assets/app-1a2b3c.js', acceptEncoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-cookie'], acceptEncoding).toBeUndefined();
    }
    expect(String((await get('/platform/files')).headers['set-cookie'])).toMatch(/XSRF-TOKEN=/);
  });

  it('has browsers check index.html on every visit, on its own address and as any page', async () => {
    for (const url of ['/', '/index.html', '/sign-in', '/platform/files/123']) {
      for (const acceptEncoding of [undefined, 'gzip', 'br']) {
        const res = await get(url, acceptEncoding);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers['content-type'], url).toMatch(/text\/html/);
        expect(res.headers['content-encoding'], `${url} ${acceptEncoding}`).toBe(acceptEncoding);
        expect(res.headers.vary, url).toMatch(/accept-encoding/i);
        const text = (
          acceptEncoding === 'br'
            ? brotliDecompressSync(res.rawPayload)
            : acceptEncoding === 'gzip'
              ? gunzipSync(res.rawPayload)
              : res.rawPayload
        ).toString();
        expect(text, `${url} ${acceptEncoding}`).toContain(
          '<script type="module" crossorigin src="/assets/app-1a2b3c.js">',
        );
        expect(text).toContain('<div id="root"></div>');
      }
    }
  });

  it('answers a browser that has the page already with 304, and a changed page in full', async () => {
    const first = await get('/sign-in', 'br');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await served.t.app.inject({
      method: 'GET',
      url: '/platform/files',
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await served.t.deps.settings.set({ app_title: 'Renamed' });
    const changed = await served.t.app.inject({
      method: 'GET',
      url: '/platform/files',
      headers: { accept: 'text/html', 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('<title>Renamed</title>');
    await served.t.deps.settings.set({ app_title: 'Atelier' });
  });
});

describe("index.html in the instance's brand", () => {
  const served = appServingBuild();

  const page = async (url = '/') => {
    const res = await served.t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode, url).toBe(200);
    return res.body;
  };
  const head = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
  const count = (html: string, pattern: RegExp) => html.match(new RegExp(pattern, 'g'))?.length ?? 0;

  it('names the instance in the tab, the description and link previews, escaped, before any script runs', async () => {
    await served.t.deps.settings.set({
      app_title: 'Studio <Kōbō> & "Sons" \'$&\'',
      app_description: 'Prints </title><script>alert(1)</script>',
      locale: 'de',
    });
    for (const url of ['/', '/index.html', '/sign-in', '/platform/files/12']) {
      const html = await page(url);
      expect(head(html), url).toContain(
        '<title>Studio &lt;Kōbō&gt; &amp; &quot;Sons&quot; &#39;$&amp;&#39;</title>',
      );
      expect(count(html, /<title>/), url).toBe(1);
      expect(html).toContain(
        '<meta name="description" content="Prints &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
      );
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('built-in description');
      expect(count(html, /name="description"/)).toBe(1);
      expect(html).toMatch(/^<!doctype html>\s*<html lang="de">/);
      expect(html).toContain('<meta property="og:site_name" content="Studio &lt;Kōbō&gt;');
      expect(html).toContain('<meta name="twitter:card" content="summary">');
      // The scripts, styles and root the build wrote stay as they were.
      expect(html).toContain('<script type="module" crossorigin src="/assets/app-1a2b3c.js"></script>');
      expect(html).toContain('<meta charset="UTF-8" />');
    }
  });

  it("points the tab and the home screen at the instance's favicon, and keeps the built-in one without", async () => {
    await served.t.deps.settings.set({ app_favicon: null, app_og_image: null });
    const builtIn = head(await page());
    expect(builtIn).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    expect(builtIn).not.toContain('apple-touch-icon');

    await served.t.deps.settings.set({ app_favicon: 'k1a2', app_og_image: 'og9z' });
    const branded = head(await page('/platform'));
    expect(branded).toContain('<link rel="icon" type="image/png" href="/api/app-images/k1a2/main">');
    expect(branded).toContain('<link rel="apple-touch-icon" href="/api/app-images/k1a2/touch">');
    expect(count(branded, /rel="icon"/)).toBe(1);
    expect(branded).not.toContain('favicon.svg');
    // A preview is made by another site: the image's address is absolute.
    expect(branded).toContain(
      '<meta property="og:image" content="http://atelier.test/api/app-images/og9z/main">',
    );
    expect(branded).toContain('<meta name="twitter:card" content="summary_large_image">');
  });

  it('paints in the accent from the first frame, and gives the browser its tone as theme colour', async () => {
    await served.t.deps.settings.set({ app_accent_color: null });
    const builtIn = head(await page());
    expect(builtIn).toContain(
      '<meta name="theme-color" content="#faf7f2" media="(prefers-color-scheme: light)" />',
    );
    expect(builtIn).not.toContain(`id="${ACCENT_STYLE_ID}"`);

    await served.t.deps.settings.set({ app_accent_color: '#ffd400' });
    const palette = accentPalette('#ffd400');
    const branded = head(await page());
    // The yellow is too light for text on the light theme: its readable tone is what both use.
    expect(palette.light.adjusted).toBe(true);
    expect(branded).toContain(
      `<meta name="theme-color" content="${palette.light.accent}" media="(prefers-color-scheme: light)">`,
    );
    expect(branded).toContain(
      `<meta name="theme-color" content="${palette.dark.accent}" media="(prefers-color-scheme: dark)">`,
    );
    expect(count(branded, /name="theme-color"/)).toBe(2);
    expect(branded).toContain(`<style id="${ACCENT_STYLE_ID}">${accentStyleSheet(palette)}</style>`);
    expect(branded).toContain(`--accent:${palette.light.accent}`);
  });

  it('makes the page again when the settings change, and only then', async () => {
    await served.t.deps.settings.set({ app_title: 'First name' });
    const first = await served.t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br' },
    });
    const second = await served.t.app.inject({
      method: 'GET',
      url: '/files',
      headers: { 'accept-encoding': 'br' },
    });
    expect(second.headers.etag).toBe(first.headers.etag);
    // The same bytes: the compressed page was kept, not made again for the second visit.
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(brotliDecompressSync(first.rawPayload).toString()).toContain('<title>First name</title>');

    await served.t.deps.settings.set({ app_title: 'Second name' });
    const renamed = await served.t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br' },
    });
    expect(renamed.headers.etag).not.toBe(first.headers.etag);
    expect(brotliDecompressSync(renamed.rawPayload).toString()).toContain('<title>Second name</title>');
  });

  it('keeps assets immutable and the page no-cache', async () => {
    const html = await served.t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(html.headers['cache-control']).toBe('no-cache');
    const asset = await served.t.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
  });

  it("answers a share's product page with the product entry, in the brand, and every other page with the app's", async () => {
    await served.t.deps.settings.set({ app_title: 'Product studio' });
    const script = (html: string) => /<script type="module" crossorigin src="([^"]+)">/.exec(html)?.[1];
    for (const url of [
      '/share/AbCdEfGhIjKlMnOpQrStUv12/product',
      '/share/AbCdEfGhIjKlMnOpQrStUv12/product?embed=1',
    ]) {
      const product = await served.t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'br' },
      });
      expect(product.statusCode, url).toBe(200);
      expect(product.headers['content-encoding'], url).toBe('br');
      const html = brotliDecompressSync(product.rawPayload).toString();
      expect(script(html), url).toBe('/assets/product-4f5e6d.js');
      expect(html, url).toContain('<title>Product studio</title>');
      expect(html, url).toContain('<meta property="og:title" content="Product studio">');
    }
    for (const url of [
      '/share/AbCdEfGhIjKlMnOpQrStUv12',
      '/share/AbCdEfGhIjKlMnOpQrStUv12/files',
      '/product',
    ])
      expect(script(await page(url)), url).toBe('/assets/app-1a2b3c.js');
    // The entry's file is never sent as it lies on disk, unbranded.
    expect(script(await page('/product.html'))).toBe('/assets/app-1a2b3c.js');
  });

  it("lets other sites frame a share's product page (an embed), and no other page", async () => {
    const page = async (url: string) =>
      served.t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    const product = await page('/share/AbCdEfGhIjKlMnOpQrStUv12/product?embed=1');
    expect(product.statusCode).toBe(200);
    expect(product.headers['x-frame-options']).toBeUndefined();
    expect(product.headers['content-security-policy']).toContain('frame-ancestors *');
    for (const url of ['/share/AbCdEfGhIjKlMnOpQrStUv12', '/share/AbCdEfGhIjKlMnOpQrStUv12/files', '/']) {
      const other = await page(url);
      expect(other.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(other.headers['content-security-policy'], url).toContain("frame-ancestors 'self'");
    }
  });

  it("lets other sites' pages load the embed script (a shop's), and no other file", async () => {
    const file = (url: string, encoding?: string) =>
      served.t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    for (const encoding of [undefined, 'br', 'gzip']) {
      const script = await file('/embed.js', encoding);
      expect(script.statusCode, encoding).toBe(200);
      expect(script.headers['cross-origin-resource-policy'], encoding).toBe('cross-origin');
    }
    expect((await file('/assets/app-1a2b3c.js')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe("a signed-in visitor's screen", () => {
  const served = appServingBuild();
  const SESSION = 'atelier_session=any';

  const visit = async (url: string, cookie?: string) => {
    const res = await served.t.app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });
    expect(res.statusCode, url).toBe(200);
    return res;
  };
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it('marks the browser as holding a session for the app to read, and takes the mark back from one without', async () => {
    const mark = (res: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) =>
      res.cookies.find((cookie) => cookie.name === SIGNED_IN_COOKIE);
    // A session from before the mark existed: the page gives it one, the httpOnly session unread.
    const marked = mark(await visit('/platform/files', SESSION));
    expect(marked?.value).toBe('1');
    expect(mark(await visit('/platform/files', `${SESSION}; ${SIGNED_IN_COOKIE}=1`))).toBeUndefined();
    // A mark the session outlived (signed out elsewhere, the cookie gone): taken back.
    const cleared = mark(await visit('/sign-in', `${SIGNED_IN_COOKIE}=1`));
    expect(cleared?.value).toBe('');
    expect(mark(await visit('/sign-in'))).toBeUndefined();
  });

  it("names the file manager's scripts in the page, so they load beside the entry's", async () => {
    for (const url of ['/platform/files', '/platform/files/1f0c', '/platform/files/1f0c?view=grid'])
      expect(preloads((await visit(url, SESSION)).body), url).toEqual([
        '/assets/files-9z8y7x.js',
        '/assets/layout-7w6v5u.js',
      ]);
  });

  it('names none to a visitor without a session, on other screens, or where the build names no script of its own', async () => {
    expect(preloads((await visit('/platform/files/1f0c')).body)).toEqual([]);
    expect(preloads((await visit('/sign-in', SESSION)).body)).toEqual([]);
    expect(preloads((await visit('/platform/filesystem', SESSION)).body)).toEqual([]);
    expect(preloads((await visit('/projects', SESSION)).body)).toEqual([]);
  });

  /** The addresses a page's Link header has the browser fetch with it, as the app's fetch() can take them. */
  const early = (res: { headers: Record<string, unknown> }) =>
    res.headers.link === undefined
      ? []
      : String(res.headers.link)
          .split(', ')
          .map((part) => /^<([^>]+)>; rel=preload; as=fetch; crossorigin$/.exec(part)?.[1] ?? part);

  it("has the browser fetch a signed-in visitor's first requests of a folder with the page, and no one else's", async () => {
    const folder = (id: string) => [
      '/api/config',
      '/api/user',
      '/translations/en',
      `/api/browse/folders/${id}?sort=created_at&direction=desc&page=1&per_page=100`,
      '/api/teams/folders/all?per_page=500',
    ];
    expect(early(await visit('/platform/files/1f0c?view=grid', SESSION))).toEqual(folder('1f0c'));
    expect(early(await visit('/platform/files', SESSION))).toEqual(folder('all'));
    for (const [url, cookie] of [['/sign-in'], ['/platform/files/1f0c'], ['/projects', SESSION]])
      expect(early(await visit(url!, cookie)), url).toEqual([]);
  });

  it('keeps each page apart for browsers that revalidate it', async () => {
    const plain = await visit('/platform/files');
    const withScripts = await visit('/platform/files', SESSION);
    expect(withScripts.headers.etag).not.toBe(plain.headers.etag);
    expect((await visit('/platform/files/other', SESSION)).headers.etag).toBe(withScripts.headers.etag);
  });
});
