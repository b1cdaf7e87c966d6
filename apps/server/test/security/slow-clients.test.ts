import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import type { TestAgent } from '../support/agent';
import { signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { multipartBody } from '../files/files-harness';
import { createShare } from '../sharing/sharing-harness';

/** Short limits, so that every slow client here is closed within a second or so. */
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '300',
  HTTP_REQUEST_TIMEOUT_MS: '500',
  HTTP_UPLOAD_IDLE_TIMEOUT_MS: '500',
  HTTP_UPLOAD_MIN_BYTES: '4096',
  MAX_CONNECTIONS_PER_ADDRESS: '60',
  MAX_REQUESTS_PER_CLIENT: '40',
};
/** How often a slow client sends its next few bytes. */
const DRIP_MS = 100;

/**
 * Ports and data folders of this file's apps. Vitest runs other files before this one in the same
 * process (isolate: false), and what they left closes in its own time, so only the descriptors that
 * belong to this file's apps are counted: sockets to or from their ports, files in their folders.
 */
const ports = new Set<number>();
const folders = new Set<string>();

/** Inodes of the TCP sockets with an end on one of `ports` (the hex port after the address's colon). */
function socketInodesOnPorts(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'latin1').split('\n').slice(1)) {
      const [, local, remote, , , , , , , inode] = line.trim().split(/\s+/);
      if (!inode) continue;
      const onPort = [local, remote].some((end) => ports.has(parseInt(end!.split(':')[1]!, 16)));
      if (onPort) inodes.add(inode);
    }
  }
  return inodes;
}

function openDescriptors(): number {
  const sockets = socketInodesOnPorts();
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket ? sockets.has(socket[1]!) : [...folders].some((folder) => target.startsWith(folder))) count++;
  }
  return count;
}

interface SlowClient {
  /** Resolves once the connection is closed, with whatever the server answered before closing it. */
  closed: Promise<string>;
  destroy(): void;
}

// Linux: the clients bind loopback addresses of their own (127.0.0.2…) and descriptors are counted in /proc.
describe.skipIf(process.platform !== 'linux')('slow clients', () => {
  let t: TestApp;
  let port: number;
  let owner: TestAgent;
  const clients: SlowClient[] = [];
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    ({ agent: owner } = await signedInAgent(t.app));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    ports.add(port);
    folders.add(t.dataDir);
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await t.close();
  });

  /**
   * A client that sends `head` at once and then `drip` bytes every DRIP_MS, for as long as the
   * server keeps the connection open, from its own loopback address.
   */
  function slowClient(head: string | Buffer, drip: Buffer, from: string, to = port): SlowClient {
    let answer = '';
    const socket = net.connect({ host: '127.0.0.1', port: to, localAddress: from });
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', () => undefined);
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => socket.write(drip), DRIP_MS);
    });
    const closed = new Promise<string>((resolve) =>
      socket.on('close', () => {
        clearInterval(timer);
        resolve(answer);
      }),
    );
    const client = { closed, destroy: () => socket.destroy() };
    clients.push(client);
    return client;
  }

  /** GET /api/ping on a connection of its own from another address: the server still answers. */
  const ping = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port, path: '/api/ping', localAddress: '127.0.0.2', agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        )
        .on('error', reject);
    });

  /**
   * Waits until the process holds no more descriptors than `baseline` (sockets and part files close
   * asynchronously: on a machine busy with other test files, 30 ended uploads took over 2 s), up to 10 s.
   */
  async function descriptorsBackTo(baseline: number): Promise<number> {
    for (let attempt = 0; attempt < 500 && openDescriptors() > baseline; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return openDescriptors();
  }

  it('closes connections whose headers never end, and answers others meanwhile', async () => {
    const before = openDescriptors();
    const slow = Array.from({ length: 40 }, () =>
      slowClient('GET /api/ping HTTP/1.1\r\nHost: atelier.test\r\nX-Slow: ', Buffer.from('a'), '127.0.0.3'),
    );
    expect(await ping()).toBe(200);
    const answers = await Promise.all(slow.map((client) => client.closed));
    for (const answer of answers) expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    figures.slowHeaders = slow.length;
    expect(await descriptorsBackTo(before)).toBe(before);
  });

  it('closes request bodies that crawl, whatever the route', async () => {
    const before = openDescriptors();
    const slow = ['/api/login', '/api/register', '/api/sharing/authenticate/abcdefabcdefabcdef'].flatMap(
      (url) =>
        Array.from({ length: 10 }, () =>
          slowClient(
            `POST ${url} HTTP/1.1\r\nHost: atelier.test\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{`,
            Buffer.from(' '),
            '127.0.0.4',
          ),
        ),
    );
    expect(await ping()).toBe(200);
    const answers = await Promise.all(slow.map((client) => client.closed));
    // Closed before any answer, or with 408: never handled as if the body had arrived.
    for (const answer of answers) expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    figures.slowBodies = slow.length;
    expect(await descriptorsBackTo(before)).toBe(before);
  });

  /** A chunk form whose chunk then arrives a few bytes at a time. */
  function slowChunk(url: string, fields: Record<string, string>, from: string, cookie?: string) {
    const key = `${randomBytes(8).toString('hex')}-scan.bin.part`;
    const { payload, headers } = multipartBody([
      ...Object.entries({ name: 'scan.bin', ...fields }).map(([field, value]) => ({ field, value })),
      { file: 'chunk', filename: fields.key ?? key, data: Buffer.alloc(0) },
    ]);
    // The form up to the chunk's bytes; the rest never comes in time.
    const opening = payload.subarray(0, payload.lastIndexOf('\r\n--'));
    const head = Buffer.concat([
      Buffer.from(
        `POST ${url} HTTP/1.1\r\nHost: atelier.test\r\nContent-Type: ${headers['content-type']}\r\n` +
          `Content-Length: ${opening.length + 1_000_000}\r\n${cookie ? `${cookie}\r\n` : ''}\r\n`,
      ),
      opening,
    ]);
    return slowClient(head, randomBytes(16), from);
  }

  it('ends chunk uploads that send almost nothing, on every upload route', async () => {
    const folder = (await owner.post('/api/create-folder', { name: 'Drop' })).json().data.id;
    const request = (await owner.post('/api/file-request', { folder_id: folder })).json().data.id;
    const editor = await createShare(owner, { id: folder, type: 'folder', permission: 'editor' });
    const session = `Cookie: ${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}; XSRF-TOKEN=${owner.cookie('XSRF-TOKEN')}\r\nX-XSRF-TOKEN: ${owner.cookie('XSRF-TOKEN')}`;
    const before = openDescriptors();
    const slow = [
      ...Array.from({ length: 10 }, () =>
        slowChunk(`/api/file-request/${request}/upload/chunks`, {}, '127.0.0.5'),
      ),
      ...Array.from({ length: 10 }, () =>
        slowChunk(`/api/sharing/upload/chunks/${editor.token}`, {}, '127.0.0.6'),
      ),
      ...Array.from({ length: 10 }, () => slowChunk('/api/upload/chunks', {}, '127.0.0.7', session)),
    ];
    expect(await ping()).toBe(200);
    // Client and server ends of each connection, and the part file each chunk is being written to.
    figures.slowChunkDescriptorsWhileHeld = openDescriptors() - before;
    const answers = await Promise.all(slow.map((client) => client.closed));
    // Each was being read when it was ended: no refusal came back before the close.
    expect(answers.every((answer) => answer === '')).toBe(true);
    figures.slowChunks = slow.length;
    expect(await descriptorsBackTo(before)).toBe(before);
  });

  it('keeps what an upload received before a chunk was ended, so the upload resumes from there', async () => {
    const folder = (await owner.post('/api/create-folder', { name: 'Resumed' })).json().data.id;
    const request = (await owner.post('/api/file-request', { folder_id: folder })).json().data.id;
    const url = `/api/file-request/${request}/upload/chunks`;
    const key = `${randomBytes(8).toString('hex')}-scan.bin.part`;
    const bytes = randomBytes(2048);
    const chunk = async (data: Buffer, fields: Record<string, string>) => {
      const { payload, headers } = multipartBody([
        ...Object.entries({ name: 'scan.bin', ...fields }).map(([field, value]) => ({ field, value })),
        { file: 'chunk', filename: key, data },
      ]);
      return t.app.inject({ method: 'POST', url, payload, headers });
    };
    expect((await chunk(bytes.subarray(0, 1024), { is_last_chunk: '0', offset: '0' })).statusCode).toBe(204);
    expect(await slowChunk(url, { is_last_chunk: '1', offset: '1024', key }, '127.0.0.8').closed).toBe('');
    const last = await chunk(bytes.subarray(1024), { is_last_chunk: '1', offset: '1024' });
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json().data.attributes.filesize).toBe(2048);
  });

  it('holds one address to its share of connections and of requests in flight', async () => {
    const before = openDescriptors();
    // Connections: those past the cap are closed at once, the others wait for their headers timeout.
    const idle = Array.from({ length: 300 }, () => slowClient('', Buffer.alloc(0), '127.0.0.9'));
    await new Promise((resolve) => setTimeout(resolve, DRIP_MS));
    figures.socketsOpened = idle.length;
    figures.descriptorsPeak = openDescriptors();
    figures.serverConnectionsHeld = await new Promise<number>((resolve) =>
      t.app.server.getConnections((_error, count) => resolve(count)),
    );
    expect(figures.serverConnectionsHeld).toBeLessThanOrEqual(Number(LIMITS.MAX_CONNECTIONS_PER_ADDRESS));
    expect(await ping()).toBe(200);
    await Promise.all(idle.map((client) => client.closed));

    // Requests in flight: past the cap, the next is refused with 429 and the connection closed; the
    // second wave proves that the first gave every one of its places back. The crawling bodies are
    // given seconds here, not this suite's half second: on a busy machine the 50 requests take longer
    // than that to arrive, and the first ones ended for crawling would free places for the last.
    const patient = await createTestApp({ env: { ...LIMITS, HTTP_REQUEST_TIMEOUT_MS: '4000' } });
    try {
      await patient.app.listen({ port: 0, host: '127.0.0.1' });
      const patientPort = (patient.app.server.address() as AddressInfo).port;
      ports.add(patientPort);
      folders.add(patient.dataDir);
      for (let wave = 0; wave < 2; wave++) {
        const crawling = Array.from({ length: 50 }, () =>
          slowClient(
            'POST /api/login HTTP/1.1\r\nHost: atelier.test\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{',
            Buffer.from(' '),
            '127.0.0.10',
            patientPort,
          ),
        );
        const answers = await Promise.all(crawling.map((client) => client.closed));
        const refused = answers.filter((answer) => answer.startsWith('HTTP/1.1 429'));
        expect(refused).toHaveLength(50 - Number(LIMITS.MAX_REQUESTS_PER_CLIENT));
        expect(refused[0]).toMatch(/\r\nretry-after: \d+\r\n/i);
      }
    } finally {
      await patient.close();
    }

    figures.descriptorsBefore = before;
    figures.descriptorsAfter = await descriptorsBackTo(before);
    expect(figures.descriptorsAfter).toBe(before);
    if (process.env.SLOW_CLIENT_FIGURES) console.info('slow-client figures', figures);
  });
});
