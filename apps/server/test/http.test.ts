import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestAgent } from './support/agent';
import { describeEachDatabase } from './support/each-database';
import { createUser, signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

describeEachDatabase('HTTP behaviour', (kind) => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>Atelier</title><div id="root"></div>',
    );
    t = await createTestApp({ database: kind, env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  describe('web app', () => {
    it('answers any page path with index.html so the client router can take over', async () => {
      for (const url of ['/', '/sign-in', '/platform/files/123', '/share/abc/files']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain('<div id="root">');
      }
    });

    it('keeps unknown API paths JSON 404s', async () => {
      for (const url of ['/api/nothing-here', '/translations', '/thumbnail/sm']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ code: 'not_found' });
      }
    });

    it('sends security headers', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      // Scripts from this instance (and the WebAssembly they compile, never eval), and Paystack's
      // inline payment form only besides.
      expect(res.headers['content-security-policy']).toContain(
        "script-src 'self' 'wasm-unsafe-eval' https://js.paystack.co;",
      );
      expect(res.headers['content-security-policy']).not.toContain("'unsafe-eval'");
    });
  });

  describe('errors', () => {
    it('hides internals of a server failure', async () => {
      const { agent } = await signedInAgent(t.app);
      await t.deps.database.db.schema.alterTable('pages').renameTo('pages_gone').execute();
      try {
        const res = await agent.get('/api/pages/terms-of-service');
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ message: 'Server Error.', code: 'internal' });
      } finally {
        await t.deps.database.db.schema.alterTable('pages_gone').renameTo('pages').execute();
      }
    });

    it('answers malformed JSON with 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_request');
    });
  });

  describe('pages and contact', () => {
    it('serves the seeded content pages and 404s unknown ones', async () => {
      for (const slug of ['terms-of-service', 'privacy-policy', 'cookie-policy']) {
        const res = await new TestAgent(t.app).get(`/api/pages/${slug}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toMatchObject({
          id: slug,
          type: 'page',
          attributes: { slug, title: expect.any(String) },
        });
      }
      expect((await new TestAgent(t.app).get('/api/pages/no-such-page')).statusCode).toBe(404);
    });

    it('refuses an empty contact message', async () => {
      const res = await new TestAgent(t.app).post('/api/contact', { email: 'a@example.test', message: '  ' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.message).toEqual(['This field is required.']);
    });
  });

  describe('maintenance mode', () => {
    it('answers 503 to users while admins and the config stay reachable', async () => {
      const { agent: user } = await signedInAgent(t.app);
      const { agent: admin } = await signedInAgent(t.app, (await createUser(t.deps, { role: 'admin' })).user);
      await t.deps.settings.set({ maintenance: true });
      try {
        const blocked = await user.get('/api/pages/terms-of-service');
        expect(blocked.statusCode).toBe(503);
        expect(blocked.json().code).toBe('maintenance');
        expect((await admin.get('/api/pages/terms-of-service')).statusCode).toBe(200);
        expect((await user.get('/api/config')).json().maintenance).toBe(true);
      } finally {
        await t.deps.settings.set({ maintenance: false });
      }
    });
  });

  describe('OpenAPI', () => {
    it('documents the account and setup routes', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/login',
          '/api/register',
          '/api/user',
          '/api/user/settings',
          '/api/setup/admin-setup',
          '/logout',
        ]),
      );
      expect(doc.paths['/api/login'].post.requestBody).toBeDefined();
      const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect([200, 302]).toContain(page.statusCode);
    });
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '5' } });
  });
  afterAll(() => t.close());

  it('answers 429 once an address exceeds RATE_LIMIT_MAX requests a minute', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/ping' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const res = await t.app.inject({ method: 'GET', url: '/api/ping' });
    expect(res.json()).toMatchObject({ code: 'throttled' });
  });
});

describe('rate limiting of calls that send mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '1200' } });
  });
  afterAll(() => t.close());

  it('allows a six-hundredth of RATE_LIMIT_MAX password-recovery requests a minute', async () => {
    const agent = new TestAgent(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await agent.post('/api/password/recover', { email: 'x@example.test' })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    expect((await agent.get('/api/config')).statusCode).toBe(200);
  });

  it('holds a link or an upload request to that rate only when it is mailed', async () => {
    const { agent } = await signedInAgent(t.app);
    let made = 0;
    const folder = async () =>
      (await agent.post('/api/create-folder', { name: `Shared ${++made}` })).json().data.id;
    const codes = { share: [] as number[], request: [] as number[], mailedShare: [] as number[] };
    for (let i = 0; i < 5; i++) {
      codes.share.push(
        (await agent.post('/api/share', { id: await folder(), type: 'folder', permission: 'visitor' }))
          .statusCode,
      );
      codes.request.push((await agent.post('/api/file-request', { folder_id: await folder() })).statusCode);
    }
    for (let i = 0; i < 3; i++) {
      const body = { id: await folder(), type: 'folder', permission: 'visitor', emails: ['a@example.test'] };
      codes.mailedShare.push((await agent.post('/api/share', body)).statusCode);
    }
    const mailedRequest = await agent.post('/api/file-request', {
      folder_id: await folder(),
      email: 'a@example.test',
    });
    expect(codes).toEqual({
      share: [201, 201, 201, 201, 201],
      request: [201, 201, 201, 201, 201],
      mailedShare: [201, 201, 429],
    });
    // The mailed calls of both routes are counted apart from the unmailed ones, each route on its own.
    expect(mailedRequest.statusCode).toBe(201);
  });
});
