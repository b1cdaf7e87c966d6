import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

const INDEX = '<!doctype html><title>Atelier</title><div id="root"></div>'.repeat(20);
const SCRIPT = 'console.log("atelier");\n'.repeat(200);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built web app as the build leaves it: each text file beside its brotli and gzip copies. */
function writeBuild(root: string) {
  mkdirSync(path.join(root, 'assets'));
  const files = { 'index.html': INDEX, 'assets/app-1a2b3c.js': SCRIPT };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(root, name), text);
    writeFileSync(path.join(root, `${name}.br`), brotliCompressSync(text));
    writeFileSync(path.join(root, `${name}.gz`), gzipSync(text));
  }
  // Too small to gain from compression: the build leaves it alone.
  writeFileSync(path.join(root, 'assets', 'tiny-4d5e6f.js'), 'export{};');
}

describe('web app files', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-'));
    writeBuild(webDist);
    t = await createTestApp({ env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
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

  it('has browsers check index.html on every visit, on its own address and as any page', async () => {
    for (const url of ['/', '/index.html', '/sign-in', '/platform/files/123']) {
      for (const acceptEncoding of [undefined, 'gzip', 'br']) {
        const res = await get(url, acceptEncoding);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers['content-type'], url).toMatch(/text\/html/);
        expect(res.headers['content-encoding'], `${url} ${acceptEncoding}`).toBe(acceptEncoding);
        expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      }
    }
  });
});
