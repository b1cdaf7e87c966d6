import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import { TestAgent } from './support/agent';
import { signedInAgent } from './support/factories';
import { createTestApp, type TestApp } from './support/test-app';

describe('hostile input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses the e-mail that made the old pattern backtrack for minutes, on every route that takes one', async () => {
    const hostile = `a@${'.'.repeat(50_000)}@`;
    const agent = new TestAgent(t.app);
    for (const [url, body] of [
      ['/api/login', { email: hostile, password: 'x' }],
      [
        '/api/register',
        { name: 'A', email: hostile, password: 'long enough', password_confirmation: 'long enough' },
      ],
      ['/api/password/recover', { email: hostile }],
      ['/api/contact', { email: hostile, message: 'hi' }],
    ] as const) {
      const res = await agent.post(url, body);
      expect([413, 422], url).toContain(res.statusCode);
    }
    // Under the body limit, the length check stops it before the pattern runs.
    const short = await agent.post('/api/password/recover', { email: `a@${'.'.repeat(5_000)}@` });
    expect(short.statusCode).toBe(422);
  });

  it('refuses sign-in forms over 8 KiB and other JSON bodies over 64 KiB with 413, before parsing', async () => {
    const agent = new TestAgent(t.app);
    const login = await agent.post('/api/login', {
      email: 'ann@example.test',
      password: 'x'.repeat(9 * 1024),
    });
    expect(login.statusCode).toBe(413);
    const { agent: owner } = await signedInAgent(t.app);
    const settings = await owner.post('/api/user/settings', {
      _method: 'patch',
      name: 'theme_mode',
      value: 'x'.repeat(70 * 1024),
    });
    expect(settings.statusCode).toBe(413);
  });

  it('serves only languages that exist and caches nothing for the others', async () => {
    const agent = new TestAgent(t.app);
    const english = (await agent.get('/translations/en')).json();
    for (let i = 0; i < 300; i++) {
      const res = await agent.get(`/translations/zz-${i.toString(36).padStart(2, '0')}`);
      if (i === 0) expect(res.json()).toEqual(english);
    }
    expect(t.deps.i18n.cachedLocales()).toEqual(['en']);
  });
});

describe('client addresses behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The deploy guide's nginx appends the real address to whatever X-Forwarded-For the client sent.
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('takes the address the proxy added, so forged entries cannot reset the sign-in throttle', async () => {
    const proxy = new TestAgent(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await proxy.post(
        '/api/login',
        { email: 'ann@example.test', password: 'guess' },
        { headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` } },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it('reads TRUST_PROXY as off, a hop count or a list of proxy addresses', () => {
    const trust = (value: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.2, 10.1.0.0/16, loopback, ::1')).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      'loopback',
      '::1',
    ]);
    expect(() => trust('10.0.0.0/40')).toThrow(/TRUST_PROXY/);
    expect(() => trust('proxy.example')).toThrow(/TRUST_PROXY/);
  });
});

describe('XSRF cookie over https', () => {
  it('uses the __Host- prefix, Secure, on /', async () => {
    const t = await createTestApp({ env: { APP_URL: 'https://files.example.test' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/ping' });
      const cookie = res.cookies.find((c) => c.name === '__Host-XSRF-TOKEN');
      expect(cookie).toMatchObject({ path: '/', secure: true });
      expect(res.cookies.some((c) => c.name === 'XSRF-TOKEN')).toBe(false);
    } finally {
      await t.close();
    }
  });
});
