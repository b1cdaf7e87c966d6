import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import { createTestApp, type TestApp } from './support/test-app';

describe('API_DOCS', () => {
  it('defaults to on in development and test, off in production (the default NODE_ENV)', () => {
    expect(parseEnv({}).apiDocs).toBe(false);
    expect(parseEnv({ NODE_ENV: 'production' }).apiDocs).toBe(false);
    expect(parseEnv({ NODE_ENV: 'development' }).apiDocs).toBe(true);
    expect(parseEnv({ NODE_ENV: 'test' }).apiDocs).toBe(true);
    expect(parseEnv({ NODE_ENV: 'production', API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(parseEnv({ NODE_ENV: 'development', API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(parseEnv({ NODE_ENV: 'development', API_DOCS: '' }).apiDocs).toBe(true);
    expect(() => parseEnv({ API_DOCS: 'sometimes' })).toThrow(/API_DOCS/);
  });

  describe('serving', () => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it.each([
      ['production by default', { NODE_ENV: 'production' }],
      ['development when turned off', { NODE_ENV: 'development', API_DOCS: 'false' }],
    ])(
      'answers 404 on the reference and its document in %s, and still builds the document',
      async (_, env) => {
        t = await createTestApp({ env });
        for (const url of ['/api/docs', '/api/docs/', '/api/docs/openapi.json', '/api/docs/json']) {
          const res = await t.app.inject({ method: 'GET', url });
          expect(res.statusCode, url).toBe(404);
          expect(res.json().code).toBe('not_found');
        }
        expect(Object.keys(t.app.swagger().paths ?? {})).toContain('/api/login');
      },
    );

    it('serves them in production when API_DOCS=true', async () => {
      t = await createTestApp({ env: { NODE_ENV: 'production', API_DOCS: 'true' } });
      const doc = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
      expect(doc.statusCode).toBe(200);
      expect(Object.keys(doc.json().paths)).toContain('/api/login');
      expect([200, 302]).toContain((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode);
    });
  });
});
