import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { multipartBody } from '../files/files-harness';
import {
  freePort,
  isListening,
  MAIN_SCRIPT,
  startProcess,
  type AppProcess,
} from '../jobs/support/app-processes';
import { waitFor } from '../jobs/support/wait-for';
import type { TestS3Server } from '../storage/s3-server';

export interface HttpAnswer {
  status: number;
  body: Buffer;
  setCookies: string[];
}

/** One request on a connection of its own, so nothing is reused across a killed server. */
function send(url: URL, method: string, headers: Record<string, string>, body?: Buffer): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent: false }, (incoming) => {
      const pieces: Buffer[] = [];
      incoming.on('data', (piece: Buffer) => pieces.push(piece));
      incoming.on('error', reject);
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          body: Buffer.concat(pieces),
          setCookies: incoming.headers['set-cookie'] ?? [],
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function killProcess({ child }: AppProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** The server as production runs it: src/main.ts in a process of its own, on a free port. */
export class ServerProcess {
  /**
   * Every process started and not yet exited, those still booting included: a start that a test's time
   * limit abandoned goes on and would otherwise outlive the file (servers left running on deleted data).
   */
  private static readonly running = new Set<AppProcess>();

  private constructor(
    private readonly app: AppProcess,
    readonly url: string,
  ) {}

  static async start(env: Record<string, string>): Promise<ServerProcess> {
    const port = await freePort();
    const app = startProcess(MAIN_SCRIPT, { ...env, PORT: String(port), HOST: '127.0.0.1' });
    ServerProcess.running.add(app);
    app.child.once('exit', () => ServerProcess.running.delete(app));
    // Booting from TypeScript source takes a while on a busy machine.
    await waitFor(
      'the server to listen',
      () => {
        if (app.child.exitCode !== null || app.child.signalCode !== null)
          throw new Error(`the server exited with ${app.child.exitCode ?? app.child.signalCode}`);
        return isListening(app);
      },
      90_000,
    );
    return new ServerProcess(app, `http://127.0.0.1:${port}`);
  }

  /** SIGKILL: the process gets no chance to finish anything it was doing. */
  kill(): Promise<void> {
    return killProcess(this.app);
  }

  /** Kills every server still running or booting (a file's last step, before its data goes). */
  static killAll(): Promise<unknown> {
    return Promise.all([...ServerProcess.running].map(killProcess));
  }

  stop(): Promise<void> {
    return this.app.stop();
  }
}

/** A signed-in browser's requests: the session cookie, and the XSRF token echoed on changes. */
export class SignedInClient {
  private xsrf = '';

  constructor(
    private readonly server: ServerProcess,
    private readonly session: string,
  ) {}

  /** Picks up the XSRF token like a first page load. */
  async open(): Promise<void> {
    const answer = await this.get('/api/ping');
    const cookie = answer.setCookies.find((c) => /^(__Host-)?XSRF-TOKEN=/.test(c));
    if (!cookie) throw new Error('the server set no XSRF-TOKEN cookie');
    this.xsrf = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  }

  get(path: string): Promise<HttpAnswer> {
    return send(new URL(path, this.server.url), 'GET', this.headers());
  }

  post(path: string, body: Buffer, headers: Record<string, string>): Promise<HttpAnswer> {
    return send(
      new URL(path, this.server.url),
      'POST',
      {
        ...this.headers(),
        ...headers,
        'x-xsrf-token': decodeURIComponent(this.xsrf),
        'content-length': String(body.length),
      },
      body,
    );
  }

  private headers(): Record<string, string> {
    const cookies = [`${SESSION_COOKIE}=${this.session}`, ...(this.xsrf ? [`XSRF-TOKEN=${this.xsrf}`] : [])];
    return { cookie: cookies.join('; '), 'x-requested-with': 'XMLHttpRequest' };
  }
}

/** The server answered a chunk with something else than its success. */
export class UnexpectedAnswer extends Error {}

/**
 * One file sent chunk by chunk as the web client does, each chunk with the offset where it starts,
 * remembering what the server acknowledged.
 */
export class ChunkedUpload {
  /** The upload's key, `<16 random>-<name>.part` like the web client's. */
  readonly key: string;
  readonly sha256: string;
  readonly chunkCount: number;
  /** Chunks the server answered with a success. */
  acknowledged = 0;
  fileId: string | null = null;

  constructor(
    readonly name: string,
    readonly data: Buffer,
    private readonly chunkSize: number,
  ) {
    this.key = `${randomBytes(8).toString('hex')}-${name}.part`;
    this.sha256 = sha256(data);
    this.chunkCount = Math.ceil(data.length / chunkSize);
  }

  /** Sends chunk `index`; a refusal or an unexpected answer throws, a dropped connection rejects. */
  async send(client: SignedInClient, index: number): Promise<void> {
    const last = index === this.chunkCount - 1;
    const { payload, headers } = multipartBody([
      { field: 'name', value: this.name },
      { field: 'extension', value: 'bin' },
      { field: 'is_last_chunk', value: last ? '1' : '0' },
      { field: 'offset', value: String(index * this.chunkSize) },
      {
        file: 'chunk',
        filename: this.key,
        data: this.data.subarray(index * this.chunkSize, (index + 1) * this.chunkSize),
      },
    ]);
    const answer = await client.post('/api/upload/chunks', payload, headers);
    if (answer.status !== (last ? 201 : 204))
      throw new UnexpectedAnswer(
        `chunk ${index} of ${this.name} answered ${answer.status}: ${answer.body.toString()}`,
      );
    this.acknowledged = index + 1;
    if (last) this.fileId = (JSON.parse(answer.body.toString()) as { data: { id: string } }).data.id;
  }
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What a storage driver holds, read behind its back. */
export interface StoredBytes {
  /** Objects by key, with their sizes. */
  objects: Map<string, number>;
  /** Uploads that have part data. */
  uploads: Set<string>;
  /** Anything else: temporary files of writes that never finished. */
  other: string[];
}

/** The local driver's folders: objects/ab/cd/<key>, uploads/<uploadId>, tmp/<random>. */
export async function localStoredBytes(root: string): Promise<StoredBytes> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const stored: StoredBytes = { objects: new Map(), uploads: new Set(), other: [] };
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const area = path.slice(root.length + 1).split('/')[0];
    if (area === 'objects') {
      // Deleted since the listing (a content made blocks loses its object): not there.
      const size = await stat(path).then(
        (found) => found.size,
        () => null,
      );
      if (size !== null) stored.objects.set(entry.name, size);
    } else if (area === 'uploads') stored.uploads.add(entry.name);
    else stored.other.push(path.slice(root.length + 1));
  }
  return stored;
}

/** The S3 driver's keys: `<key>` for objects, `uploads/<uploadId>/<n>` for parts. */
export async function s3StoredBytes(s3: TestS3Server): Promise<StoredBytes> {
  const client = new S3Client({
    endpoint: s3.config.endpoint,
    region: s3.config.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.config.accessKeyId, secretAccessKey: s3.config.secretAccessKey },
  });
  const stored: StoredBytes = { objects: new Map(), uploads: new Set(), other: [] };
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3.config.bucket, ContinuationToken: token }),
      );
      for (const { Key = '', Size = 0 } of page.Contents ?? []) {
        const [first, second] = Key.split('/');
        if (second === undefined) stored.objects.set(Key, Size);
        else if (first === 'uploads') stored.uploads.add(second);
        else stored.other.push(Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return stored;
}
