import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { RenderError } from '../../types';
import { frameRelayScript, studioPageScript } from './page-bundle';

/**
 * The studio page's only link to Node, on 127.0.0.1 behind a random path prefix: it serves the page,
 * its bundled script and three.js from node_modules (no network), hands out model buffers as binary,
 * and carries rendered frames back over a WebSocket as raw pixels — CDP would base64 every byte, and a fetch upload
 * of 8 MB frames is several times slower in Chromium than a binary WebSocket message. The page opens
 * that socket from a shared worker (`relayUrl`, page/frame-relay.ts), where DevTools does not watch it.
 */
export interface PageServer {
  readonly origin: string;
  /** URL of the page a studio tab opens. */
  pageUrl(channelId: string): string;
  /** URL of the studio page's module (`page/main.ts` bundled), which the page imports to install itself. */
  readonly scriptUrl: string;
  /** URL of the frame relay's script (`page/frame-relay.ts` bundled), a shared worker the page starts. */
  readonly relayUrl: string;
  /** Publishes bytes at a one-off URL until `unpublish`. */
  publish(bytes: Uint8Array, contentType: string): { url: string; unpublish: () => void };
  /** The frame channel of one page (created on demand, connected when the page opens its socket). */
  channel(channelId: string): FrameChannel;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const THREE_FILES = new Set(['three.module.js', 'three.core.js']);
const SCRIPT_PATH = 'studio/page.js';
const RELAY_PATH = 'studio/frame-relay.js';

function threeBuildDir(): string {
  return dirname(require.resolve('three'));
}

const PAGE_HTML = (prefix: string): string => `<!doctype html>
<html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"${prefix}/three/three.module.js"}}</script>
</head><body style="margin:0;background:#000"></body></html>`;

/** Frames a page sends, delivered in order; `next` waits for the following one. */
export class FrameChannel {
  private socket: WebSocket | undefined;
  private readonly queue: Buffer[] = [];
  private waiting: { resolve: (frame: Buffer) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;
  private connectedResolve!: () => void;
  readonly connected = new Promise<void>((resolve) => (this.connectedResolve = resolve));

  attach(socket: WebSocket): void {
    this.socket = socket;
    this.failure = undefined;
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) return;
      const frame = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data);
      if (this.waiting) {
        const { resolve } = this.waiting;
        this.waiting = undefined;
        resolve(frame);
      } else this.queue.push(frame);
    });
    socket.on('close', () =>
      this.fail(new RenderError('engine_unavailable', 'the studio page closed its frame channel')),
    );
    this.connectedResolve();
  }

  /** The next frame, or a typed error after `timeoutMs` (a hung GPU process must not hang a job). */
  next(timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(new RenderError('cancelled', 'render cancelled'));
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          done(
            new RenderError(
              'timeout',
              `no frame from the studio page within ${Math.round(timeoutMs / 1000)} s`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = (): void => done(new RenderError('cancelled', 'render cancelled'));
      const done = (error?: Error, frame?: Buffer): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting = undefined;
        if (error) reject(error);
        else resolve(frame!);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = { resolve: (frame) => done(undefined, frame), reject: (error) => done(error) };
    });
  }

  /** Tells the page a frame was consumed, so it may render further ahead. */
  ack(): void {
    this.socket?.send('ack');
  }

  /** Fails the current wait (the page reported an error, so no frame is coming). */
  interrupt(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  /** Drops frames left over from a cancelled or failed run. */
  drain(): void {
    this.queue.length = 0;
  }

  private fail(error: Error): void {
    this.failure = error;
    this.interrupt(error);
  }

  close(): void {
    this.socket?.close();
  }
}

export async function startPageServer(): Promise<PageServer> {
  const prefix = `/${randomBytes(16).toString('hex')}`;
  const published = new Map<string, { bytes: Uint8Array; contentType: string }>();
  const channels = new Map<string, FrameChannel>();
  const threeDir = threeBuildDir();
  const [script, relay] = await Promise.all([studioPageScript(), frameRelayScript()]);

  const channel = (id: string): FrameChannel => {
    let existing = channels.get(id);
    if (!existing) {
      existing = new FrameChannel();
      channels.set(id, existing);
    }
    return existing;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: string | Uint8Array, contentType = 'text/plain'): void => {
      res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' || !url.pathname.startsWith(`${prefix}/`)) return send(404, 'not found');
    const path = url.pathname.slice(prefix.length + 1);
    if (path.startsWith('page/')) return send(200, PAGE_HTML(prefix), 'text/html');
    if (path === SCRIPT_PATH) return send(200, script, 'text/javascript');
    if (path === RELAY_PATH) return send(200, relay, 'text/javascript');
    if (path.startsWith('three/')) {
      const file = path.slice('three/'.length);
      if (!THREE_FILES.has(file)) return send(404, 'not found');
      return send(200, await readFile(join(threeDir, file)), 'text/javascript');
    }
    const item = published.get(path);
    if (item) return send(200, item.bytes, item.contentType);
    send(404, 'not found');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      res.writeHead(500);
      res.end(error.message);
    });
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 8192 * 8192 * 4 + 1024 });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (!path.startsWith(`${prefix}/frames/`)) return socket.destroy();
    const id = path.slice(`${prefix}/frames/`.length);
    sockets.handleUpgrade(req, socket, head, (ws) => channel(id).attach(ws));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let counter = 0;

  return {
    origin,
    pageUrl: (channelId) => `${origin}${prefix}/page/${channelId}`,
    scriptUrl: `${origin}${prefix}/${SCRIPT_PATH}`,
    relayUrl: `${origin}${prefix}/${RELAY_PATH}`,
    publish(bytes, contentType) {
      const key = `data/${++counter}-${randomBytes(6).toString('hex')}`;
      published.set(key, { bytes, contentType });
      return { url: `${origin}${prefix}/${key}`, unpublish: () => published.delete(key) };
    },
    channel,
    async close() {
      for (const c of channels.values()) c.close();
      channels.clear();
      published.clear();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
