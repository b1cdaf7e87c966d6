import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a payment provider's API received. */
export interface PeerRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body read as a form (Stripe's encoding: `line_items[0][price]=...`). */
  form: URLSearchParams;
  /** The body read as JSON (Paystack's encoding), or null. */
  json: unknown;
}

/** An answer: a status and a JSON body. */
export type PeerAnswer = [status: number, body: unknown];
export type PeerRoute = (request: PeerRequest) => PeerAnswer;

/**
 * A real local HTTP server playing a payment provider's API: each `"METHOD /path"` route answers
 * JSON as the provider would, and every request is recorded so a test sees exactly what was sent.
 * An unknown route answers 404 in the provider's error shape.
 */
export interface ProviderPeer {
  url: string;
  requests: PeerRequest[];
  routes: Map<string, PeerRoute>;
  close(): Promise<void>;
}

export async function startProviderPeer(routes: Record<string, PeerRoute> = {}): Promise<ProviderPeer> {
  const requests: PeerRequest[] = [];
  const table = new Map(Object.entries(routes));
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://peer');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = body ? JSON.parse(body) : null;
      } catch {
        json = null;
      }
      const request: PeerRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body,
        form: new URLSearchParams(body),
        json,
      };
      requests.push(request);
      const route = table.get(`${request.method} ${request.path}`);
      const [status, answer] = route
        ? route(request)
        : [404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes: table,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
