import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { isFetchableAddress, type AddressRange } from '../../lib/public-address';

/** Why an address could not be fetched; logged, and counted as failed for the user. */
export type RemoteFailure = 'protocol' | 'address' | 'dns' | 'redirects' | 'status' | 'timeout';

export class RemoteFetchError extends Error {
  override name = 'RemoteFetchError';

  constructor(
    readonly reason: RemoteFailure,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

export interface RemoteFetchOptions {
  /** Private ranges the operator allows (REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES). */
  allowed: readonly AddressRange[];
  /** Every address a host name resolves to: the system resolver unless a test brings its own. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Longest wait for the name to resolve and for the connection to open. */
  connectTimeoutMs?: number;
  /** Longest silence while waiting for the headers or the next body bytes. */
  idleTimeoutMs?: number;
  /** Longest time one address may take from the first lookup to its last byte. */
  totalTimeoutMs?: number;
}

export interface RemoteResponse {
  /** The body; it stops with an error when a timeout or the caller's signal ends the fetch. */
  body: IncomingMessage;
  /** Content-Length, when the server sent one. */
  length: number | null;
  /** Content-Disposition's file name, else the last segment of the final address's path, made safe. */
  fileName: string | null;
}

export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULTS = { connectTimeoutMs: 10_000, idleTimeoutMs: 30_000, totalTimeoutMs: 15 * 60_000 };
const NAME_MAX = 255;

async function systemResolve(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/**
 * Fetches user-given addresses without letting them reach the server's own network (SSRF): the host
 * is resolved here, every address it resolves to must be public (or in an allowed range), and the
 * connection goes to the checked address itself, so a second answer from DNS (rebinding) is never
 * asked for. The address the socket connected to is checked once more. Redirects are followed by
 * hand, at most three, each checked the same way. Only http and https; no pooled sockets, no
 * credentials, no compression.
 */
export class RemoteFetcher {
  private readonly resolve: (hostname: string) => Promise<string[]>;
  private readonly timeouts: typeof DEFAULTS;

  constructor(private readonly options: RemoteFetchOptions) {
    this.resolve = options.resolve ?? systemResolve;
    this.timeouts = {
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
      totalTimeoutMs: options.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs,
    };
  }

  /** Opens `address` and answers once a 2xx response's headers arrived; throws RemoteFetchError otherwise. */
  async open(address: string, signal: AbortSignal): Promise<RemoteResponse> {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(this.timeouts.totalTimeoutMs)]);
    let url = httpUrl(address);
    for (let redirects = 0; ; redirects++) {
      const response = await this.request(url, deadline);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        response.destroy();
        if (redirects === MAX_REDIRECTS)
          throw new RemoteFetchError('redirects', `more than ${MAX_REDIRECTS}`);
        url = httpUrl(location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new RemoteFetchError('status', String(status));
      }
      const length = Number(response.headers['content-length']);
      return {
        body: response,
        length: Number.isSafeInteger(length) && length >= 0 ? length : null,
        fileName: fileNameOf(response.headers['content-disposition'], url),
      };
    }
  }

  /** The one address of `hostname` to connect to, once every address it resolves to passed. */
  private async checkedAddress(url: URL, signal: AbortSignal): Promise<string> {
    const hostname = bareHost(url);
    let addresses: string[];
    if (isIP(hostname)) addresses = [hostname];
    else {
      addresses = await within(this.resolve(hostname), this.timeouts.connectTimeoutMs, signal).catch(
        (error: unknown) => {
          if (error instanceof RemoteFetchError || signal.aborted) throw error;
          throw new RemoteFetchError('dns', hostname);
        },
      );
    }
    if (addresses.length === 0) throw new RemoteFetchError('dns', hostname);
    const refused = addresses.find((address) => !isFetchableAddress(address, this.options.allowed));
    if (refused !== undefined) throw new RemoteFetchError('address', `${hostname} is ${refused}`);
    return addresses[0]!;
  }

  private async request(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const address = await this.checkedAddress(url, signal);
    const secure = url.protocol === 'https:';
    const hostname = bareHost(url);
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = (secure ? https : http).request({
        host: address,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
          host: url.host,
          'user-agent': 'Atelier remote upload',
          accept: '*/*',
          'accept-encoding': 'identity',
        },
        // The certificate is checked against the name in the address, not the IP connected to.
        servername: isIP(hostname) ? '' : hostname,
        agent: false,
        timeout: this.timeouts.idleTimeoutMs,
      });
      let response: IncomingMessage | null = null;
      // The body's reader sees why the fetch ended (a timeout, the caller's abort), not a bare reset.
      const fail = (error: Error) => {
        response?.destroy(error);
        request.destroy(error);
      };
      const onAbort = () => fail(abortReason(signal));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      request.once('close', () => signal.removeEventListener('abort', onAbort));
      request.once('socket', (socket: Socket) => {
        const connectTimer = setTimeout(
          () => fail(new RemoteFetchError('timeout', `connecting to ${url.host}`)),
          this.timeouts.connectTimeoutMs,
        );
        socket.once('connect', () => {
          clearTimeout(connectTimer);
          if (!isFetchableAddress(socket.remoteAddress ?? '', this.options.allowed))
            fail(new RemoteFetchError('address', `connected to ${socket.remoteAddress}`));
        });
        socket.once('close', () => clearTimeout(connectTimer));
      });
      request.once('timeout', () => fail(new RemoteFetchError('timeout', `${url.host} went silent`)));
      request.once('response', (answer: IncomingMessage) => {
        response = answer;
        resolve(answer);
      });
      request.on('error', reject);
      request.end();
    });
  }
}

/** An http or https address, resolved against `base` for a redirect's Location. */
function httpUrl(address: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    throw new RemoteFetchError('protocol', 'not an address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RemoteFetchError('protocol', url.protocol);
  return url;
}

/** The URL's host without the brackets of an IPv6 literal (the URL parser already wrote any IPv4 spelling as a.b.c.d). */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The total timeout reads as a timeout; the caller's own abort stays an AbortError. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof DOMException && reason.name === 'TimeoutError')
    return new RemoteFetchError('timeout', 'the fetch took too long');
  return reason instanceof Error ? reason : new DOMException('The fetch was aborted', 'AbortError');
}

/** Waits for `promise` at most `ms`, and no longer than `signal` allows. */
function within<T>(promise: Promise<T>, ms: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new RemoteFetchError('timeout', 'resolving'))), ms);
    const onAbort = () => finish(() => reject(abortReason(signal)));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** The name a download should get: Content-Disposition's (RFC 6266), else the address's last path segment. */
export function fileNameOf(disposition: string | undefined, url: URL): string | null {
  const given = disposition ? dispositionName(disposition) : null;
  if (given !== null) {
    const safe = safeFileName(given);
    if (safe) return safe;
  }
  const segment = url.pathname.split('/').pop() ?? '';
  return safeFileName(decodeOr(segment));
}

function dispositionName(header: string): string | null {
  // `filename*=UTF-8''na%C3%AFve.txt` wins over the plain `filename=` beside it.
  const extended = /(?:^|;)\s*filename\*=([^;]*)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const [charset = '', , encoded] = extended.split("'");
    if (encoded !== undefined) {
      if (charset.toLowerCase() === 'utf-8') return decodeOr(encoded);
      if (charset.toLowerCase() === 'iso-8859-1')
        return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        );
    }
  }
  const plain = /(?:^|;)\s*filename=("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header)?.[1]?.trim();
  if (!plain) return null;
  return plain.startsWith('"') ? plain.slice(1, -1).replace(/\\(.)/g, '$1') : plain;
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A name the file manager accepts: the last part of any path, without control characters, not `.`
 * or `..`, at most 255 characters with its extension kept. Null when nothing is left.
 */
export function safeFileName(raw: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const name = (raw.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name || name === '.' || name === '..') return null;
  if (name.length <= NAME_MAX) return name;
  const extension = /\.[A-Za-z0-9]{1,16}$/.exec(name)?.[0] ?? '';
  let stem = name.slice(0, NAME_MAX - extension.length);
  // Never end on half of a character written as two UTF-16 units.
  if (/[\ud800-\udbff]$/.test(stem)) stem = stem.slice(0, -1);
  return `${stem.trimEnd()}${extension}`;
}
