import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';
import { clientNetwork } from '../lib/client-network';

/** How long a client refused for too many requests at once is asked to wait. */
const RETRY_AFTER_SECONDS = 1;

/** Node's own check of header deadlines runs this often: a quarter of the timeout, at most 30 s. */
export function connectionsCheckingInterval(env: Pick<Env, 'HTTP_HEADERS_TIMEOUT_MS'>): number {
  return Math.max(10, Math.min(30_000, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 4)));
}

/** Bodies of any size that stream: chunk forms and the like, and WebDAV's PUT. */
function isUpload(request: FastifyRequest): boolean {
  return request.method === 'PUT' || /^multipart\//i.test(request.headers['content-type'] ?? '');
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

interface WatchedBody {
  request: IncomingMessage;
  socket: Socket;
  upload: boolean;
  /** A body that is no upload must have arrived by then. */
  deadline: number;
  /** An upload's progress is measured in windows: when the current one began and the bytes read by then. */
  windowStart: number;
  windowBytes: number;
}

/**
 * Ends the clients that hold the server's sockets while sending next to nothing.
 *
 * - Headers: Node closes a connection whose request headers have not all arrived within
 *   HTTP_HEADERS_TIMEOUT_MS (set on the server in app.ts), idle new connections included.
 * - Bodies: a request that is no upload has HTTP_REQUEST_TIMEOUT_MS after its headers to send its
 *   whole body; an upload may take as long as it needs but is ended when it sends less than
 *   HTTP_UPLOAD_MIN_BYTES in HTTP_UPLOAD_IDLE_TIMEOUT_MS. Chunked uploads keep what their earlier
 *   chunks stored, so the client sends the ended chunk again and goes on.
 * - Many at once: one client address holds at most MAX_REQUESTS_PER_CLIENT requests in flight (the
 *   next answers 429 and its connection closes), and, unless a trusted proxy connects for everyone,
 *   one connecting address holds at most MAX_CONNECTIONS_PER_ADDRESS sockets (more are closed at once).
 *
 * Deadlines are on the monotonic clock: they bound sockets, not application time.
 */
export const slowClientPlugin = fp(async (app: FastifyInstance) => {
  const { env } = app.deps;
  const watched = new Set<WatchedBody>();
  const inFlight = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  const tickMs = Math.max(
    10,
    Math.floor(Math.min(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_UPLOAD_IDLE_TIMEOUT_MS) / 4),
  );

  const check = () => {
    const now = performance.now();
    for (const body of watched) {
      if (body.request.complete || body.socket.destroyed) {
        watched.delete(body);
      } else if (!body.upload) {
        if (now >= body.deadline) body.socket.destroy();
      } else if (now - body.windowStart >= env.HTTP_UPLOAD_IDLE_TIMEOUT_MS) {
        const read = body.socket.bytesRead;
        // A body the server itself stopped reading (storage is slow to take it) is not the client's fault.
        const heldBack = body.request.readableFlowing === false;
        if (!heldBack && read - body.windowBytes < env.HTTP_UPLOAD_MIN_BYTES) body.socket.destroy();
        else Object.assign(body, { windowStart: now, windowBytes: read });
      }
    }
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  const watch = (request: FastifyRequest) => {
    const now = performance.now();
    const socket = request.raw.socket;
    // Requests injected by tests have no connection to end.
    if (!(socket instanceof Socket)) return;
    watched.add({
      request: request.raw,
      socket,
      upload: isUpload(request),
      deadline: now + env.HTTP_REQUEST_TIMEOUT_MS,
      windowStart: now,
      windowBytes: socket.bytesRead,
    });
    timer ??= setInterval(check, tickMs).unref();
  };

  app.addHook('onRequest', async (request, reply) => {
    if (hasBody(request) && !request.raw.complete) watch(request);
    const client = clientNetwork(request.ip);
    const count = (inFlight.get(client) ?? 0) + 1;
    if (count > env.MAX_REQUESTS_PER_CLIENT) {
      reply.header('connection', 'close');
      throw new AppError('throttled', 'errors.throttled', undefined, undefined, {
        retry_after: RETRY_AFTER_SECONDS,
      });
    }
    inFlight.set(client, count);
    // 'close' comes once for every response, sent to the end or given up by its client (Fastify's
    // onResponse misses a stream whose client left). One listener more than others expect.
    reply.raw.setMaxListeners(reply.raw.getMaxListeners() + 1);
    reply.raw.once('close', () => {
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left > 0) inFlight.set(client, left);
      else inFlight.delete(client);
    });
  });

  // Behind a trusted proxy every connection comes from the proxy: its own caps hold the clients there.
  if (env.TRUST_PROXY === false) {
    const connections = new Map<string, number>();
    app.server.on('connection', (socket: Socket) => {
      const address = clientNetwork(socket.remoteAddress ?? '');
      const count = (connections.get(address) ?? 0) + 1;
      if (count > env.MAX_CONNECTIONS_PER_ADDRESS) {
        socket.destroy();
        return;
      }
      connections.set(address, count);
      socket.once('close', () => {
        const left = (connections.get(address) ?? 1) - 1;
        if (left > 0) connections.set(address, left);
        else connections.delete(address);
      });
    });
  }

  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    watched.clear();
  });
});
