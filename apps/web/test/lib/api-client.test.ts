import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiRequest, setUnauthorizedHandler } from '../../src/lib/api-client';

// A real HTTP peer: it answers by path and records what it was sent.
let server: Server;
let origin: string;
const seen: { method?: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method, headers: request.headers, body });
      const reply = (status: number, payload?: unknown) => {
        response.writeHead(status, payload === undefined ? {} : { 'Content-Type': 'application/json' });
        response.end(payload === undefined ? undefined : JSON.stringify(payload));
      };
      if (request.url === '/api/echo') return reply(200, { ok: true });
      if (request.url === '/api/settings') return reply(204);
      if (request.url === '/api/invalid')
        return reply(422, {
          message: 'The given data was invalid.',
          code: 'validation_failed',
          errors: { email: ['validation.email'] },
        });
      if (request.url === '/api/user')
        return reply(401, { message: 'Unauthenticated.', code: 'unauthenticated' });
      reply(404, { message: 'Not found.', code: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  setUnauthorizedHandler(undefined);
});

describe('api client', () => {
  it('echoes the XSRF cookie and marks the request as AJAX on a change', async () => {
    document.cookie = `XSRF-TOKEN=${encodeURIComponent('token/with=chars')}; path=/`;
    await expect(
      apiRequest(`${origin}/api/echo`, { method: 'POST', body: { name: 'theme_mode' } }),
    ).resolves.toEqual({ ok: true });
    const [request] = seen;
    expect(request?.headers['x-xsrf-token']).toBe('token/with=chars');
    expect(request?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ name: 'theme_mode' });
  });

  it('sends no XSRF header on a read', async () => {
    document.cookie = 'XSRF-TOKEN=abc; path=/';
    await apiRequest(`${origin}/api/echo`);
    expect(seen[0]?.headers['x-xsrf-token']).toBeUndefined();
    expect(seen[0]?.headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it('answers undefined for 204', async () => {
    await expect(apiRequest(`${origin}/api/settings`, { method: 'POST', body: {} })).resolves.toBeUndefined();
  });

  it('turns a 422 into an ApiError carrying the field messages', async () => {
    const error = await apiRequest(`${origin}/api/invalid`, { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fieldError('email')).toBe('validation.email');
  });

  it('reports a 401 to the session handler unless the call opts out', async () => {
    let signedOut = 0;
    setUnauthorizedHandler(() => signedOut++);
    await expect(apiRequest(`${origin}/api/user`)).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toBe(1);
    await expect(apiRequest(`${origin}/api/user`, { handleUnauthorized: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(signedOut).toBe(1);
  });

  it('marks a call that got no response with status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await apiRequest(`http://127.0.0.1:${port}/api/echo`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isNetworkError).toBe(true);
  });
});
