import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { InjectOptions, Response } from 'light-my-request';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AgentRequest {
  headers?: Record<string, string>;
  /** Send the X-XSRF-TOKEN header on state changes (default true), like the web client does. */
  xsrf?: boolean;
}

/**
 * A browser-like client over app.inject: it keeps the cookies the server sets (session, XSRF-TOKEN)
 * and echoes XSRF-TOKEN in X-XSRF-TOKEN on every POST/PUT/PATCH/DELETE.
 */
export class TestAgent {
  private readonly jar = new Map<string, string>();

  /** `remoteAddress` is the client's address as the server sees it (127.0.0.1 when omitted). */
  constructor(
    readonly app: FastifyInstance,
    private readonly remoteAddress?: string,
  ) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  clearCookies(): void {
    this.jar.clear();
  }

  get(url: string, options?: AgentRequest) {
    return this.request('GET', url, undefined, options);
  }

  post(url: string, payload?: InjectOptions['payload'], options?: AgentRequest) {
    return this.request('POST', url, payload, options);
  }

  patch(url: string, payload?: InjectOptions['payload'], options?: AgentRequest) {
    return this.request('PATCH', url, payload, options);
  }

  put(url: string, payload?: InjectOptions['payload'], options?: AgentRequest) {
    return this.request('PUT', url, payload, options);
  }

  delete(url: string, payload?: InjectOptions['payload'], options?: AgentRequest) {
    return this.request('DELETE', url, payload, options);
  }

  async request(
    method: Method,
    url: string,
    payload?: InjectOptions['payload'],
    options: AgentRequest = {},
  ): Promise<Response> {
    // Like a browser's first page load: pick up the XSRF cookie before the first state change.
    if (method !== 'GET' && options.xsrf !== false && !this.jar.has('XSRF-TOKEN'))
      await this.get('/api/ping');
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...options.headers };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.jar.get('XSRF-TOKEN');
    if (method !== 'GET' && options.xsrf !== false && xsrf) headers['x-xsrf-token'] = xsrf;
    const response = await withLazyText(
      await this.app.inject({
        method,
        url,
        payload,
        headers,
        payloadAsStream: true,
        ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      }),
    );
    for (const c of response.cookies) {
      const expired =
        c.value === '' || (c.expires !== undefined && new Date(c.expires).getTime() <= Date.now());
      if (expired) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return response;
  }
}

/**
 * The injected response with its body read whole (`rawPayload`), and decoded as text only when a test
 * asks (`payload`, `body`, `json()`): the injector decodes every body it buffers, which for the
 * downloads the tests compare by their bytes was a tenth of a file's CPU (blockify's 51 CPU-s).
 */
async function withLazyText(response: Response): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
  const rawPayload = Buffer.concat(chunks);
  let text: string | undefined;
  const payload = () => (text ??= rawPayload.toString());
  return Object.defineProperties(response, {
    rawPayload: { value: rawPayload },
    payload: { get: payload },
    body: { get: payload },
    json: { value: () => JSON.parse(payload()) as unknown },
  });
}

/** A client address of its own, so throttle windows of one test never touch another's. */
export function uniqueAddress(): string {
  return `10.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
}
