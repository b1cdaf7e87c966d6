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
});
