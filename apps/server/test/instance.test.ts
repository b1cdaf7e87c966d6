import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PublicConfig } from '@atelier/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './support/each-database';
import { createTestApp, type TestApp } from './support/test-app';

describeEachDatabase('instance endpoints', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: kind, settings: { app_title: 'Studio North', upload_limit: 1234 } });
  });
  afterAll(() => t.close());

  it('answers ping', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ping' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('serves the public config from the settings', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    const config = PublicConfig.parse(res.json());
    expect(config.app.name).toBe('Studio North');
    expect(config.uploadLimit).toBe(1234);
    expect(config.installation).toBe('installation-done');
    expect(config.broadcasting.driver).toBe('socket.io');
  });

  it('reflects a changed setting on the next read', async () => {
    await t.deps.settings.set({ registration: false });
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json().registration).toBe(false);
  });

  it('publishes an OpenAPI document listing the routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/ping', '/api/config']));
  });

  it('serves translations as a flat map of the strings shipped in the contracts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/translations/en' });
    expect(res.statusCode).toBe(200);
    expect(res.json()['alerts.error_confirm']).toBe("That's horrible!");
  });

  it('sends the translations compressed as the browser accepts, and a revisit revalidates them', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/translations/en' });
    const br = await t.app.inject({
      method: 'GET',
      url: '/translations/en',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    // Every page load asks for them: a third of the bytes or less on the wire (about a quarter).
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/translations/en',
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

    expect(plain.headers['cache-control']).toBe('no-cache');
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const revisit = await t.app.inject({
      method: 'GET',
      url: '/translations/en',
      headers: { 'if-none-match': etag },
    });
    expect(revisit.statusCode).toBe(304);
    expect(revisit.rawPayload.length).toBe(0);
  });
});
