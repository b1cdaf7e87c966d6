import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A local web server standing in for the sites a remote upload fetches from; it counts every request. */
export interface Origin {
  /** `http://host:port`, IPv6 hosts in brackets. */
  url: string;
  port: number;
  /** Paths requested so far, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startOrigin(host: string, routes: Record<string, Route>): Promise<Origin> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const route = routes[new URL(request.url ?? '/', 'http://origin').pathname];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `body`, with a Content-Length unless `streamed` (then in chunked transfer, size unknown). */
export function serve(body: Buffer, headers: Record<string, string> = {}, streamed = false): Route {
  return (_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      ...(streamed ? {} : { 'content-length': String(body.length) }),
      ...headers,
    });
    if (!streamed) return void response.end(body);
    // Several writes, so the client reads the body in pieces as it would from a real site.
    for (let at = 0; at < body.length; at += 16 * 1024) response.write(body.subarray(at, at + 16 * 1024));
    response.end();
  };
}

/** Redirects to the `to` query parameter. */
export const redirect: Route = (request, response) => {
  const to = new URL(request.url ?? '/', 'http://origin').searchParams.get('to') ?? '/';
  response.writeHead(302, { location: to }).end();
};
