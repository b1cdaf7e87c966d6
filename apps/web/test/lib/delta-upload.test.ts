import { createHash } from 'node:crypto';
import { chunkBoundaries } from '@atelier/chunker';
import { BLOCKS_MAX_HASHES } from '@atelier/contracts/constants';
import { describe, expect, it, vi } from 'vitest';
import { hashFileBlocks, type HashBlocks } from '../../src/lib/block-hashes';
import { sha256Fallback, sha256Hex } from '../../src/lib/sha256';
import {
  createUploadQueue,
  type UploadNotice,
  type UploadQueueOptions,
  type UploadQueueState,
  type UploadedFile,
} from '../../src/lib/upload-queue';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// Noise from a seeded xorshift, a new seed each call: where the chunker cuts (and so how many bytes a
// test sends) is the same on every run, as truly random bytes made a byte bound pass only most times.
let seed = 0x9e3779b9;
function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const words = new Uint32Array(Math.ceil(length / 4));
  let x = (seed = (seed + 0x6d2b79f5) >>> 0) || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new Uint8Array(words.buffer, 0, length);
}

// jsdom's Blob has no arrayBuffer(); its FileReader reads the bytes the client sliced.
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** A request the fake server answers with a failure (`times` times, once unless said) before answering it as usual. */
type Fault = { path: RegExp; reply: number | 'network-error'; times?: number };

interface Commit {
  name: string;
  parent_id?: string;
  conflict?: string;
  size: number;
  blocks: string[];
}

/**
 * An in-memory stand-in for the delta upload's three routes (docs/api.md), as the API contract
 * answers them: `missing` lists the hashes it holds no block for, a PUT checks the bytes' SHA-256
 * and keeps the block, a commit files the blocks in order (409 with `missing` when one is not held,
 * 422 when the size is not theirs). It also answers the chunk form, so a fall back shows.
 */
function fakeBlockServer(
  options: { faults?: Fault[]; offersDelta?: boolean; holdPuts?: Promise<void> } = {},
) {
  const blocks = new Map<string, Uint8Array>();
  const files: { name: string; bytes: Uint8Array; conflict: string | null }[] = [];
  const requests: { method: string; path: string; bytes: number }[] = [];
  const commits: Commit[] = [];
  const chunkForm: string[] = [];
  let inFlightPuts = 0;
  let maxInFlightPuts = 0;
  const faults = (options.faults ?? []).map((fault) => ({ ...fault, left: fault.times ?? 1 }));
  /** Called before a commit is answered: a test may drop blocks there. */
  let beforeCommit: (() => void) | null = null;

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://atelier.test');
    const method = init.method ?? 'GET';
    const body = init.body;
    // Recorded as it is made, before its body is read (which takes turns): a request made before
    // another failed is never counted as one made after.
    const seen = { method, path: url.pathname, bytes: 0 };
    requests.push(seen);
    const bytes =
      body instanceof Blob
        ? await readBytes(body)
        : typeof body === 'string'
          ? new TextEncoder().encode(body)
          : null;
    seen.bytes = bytes?.length ?? 0;
    init.signal?.throwIfAborted();
    const fault = faults.find((candidate) => candidate.left > 0 && candidate.path.test(url.pathname));
    if (fault) {
      fault.left -= 1;
      if (fault.reply === 'network-error') throw new TypeError('Failed to fetch');
      return Response.json({ message: `refused with ${fault.reply}` }, { status: fault.reply });
    }
    if (url.pathname === '/api/upload/chunks') {
      chunkForm.push(String((body as FormData).get('name')));
      return Response.json(
        { data: { id: 'chunked', type: 'file', attributes: { name: 'x', parent_id: null } } },
        { status: 201 },
      );
    }
    if (!options.offersDelta && options.offersDelta !== undefined) return new Response(null, { status: 404 });
    const text = () => JSON.parse(new TextDecoder().decode(bytes!)) as Record<string, unknown>;
    if (url.pathname === '/api/upload/blocks/missing' && method === 'POST') {
      const hashes = text().hashes as string[];
      return Response.json({ data: { missing: [...new Set(hashes)].filter((hash) => !blocks.has(hash)) } });
    }
    if (url.pathname === '/api/upload/blocks/commit' && method === 'POST') {
      const commit = text() as unknown as Commit;
      commits.push(commit);
      beforeCommit?.();
      beforeCommit = null;
      const missing = commit.blocks.filter((hash) => !blocks.has(hash));
      if (missing.length > 0)
        return Response.json({ errors: [{ code: 'blocks_missing' }], missing }, { status: 409 });
      const parts = commit.blocks.map((hash) => blocks.get(hash)!);
      const size = parts.reduce((sum, part) => sum + part.length, 0);
      if (size !== commit.size) return Response.json({ message: 'size' }, { status: 422 });
      const whole = new Uint8Array(size);
      parts.reduce((offset, part) => (whole.set(part, offset), offset + part.length), 0);
      files.push({ name: commit.name, bytes: whole, conflict: commit.conflict ?? null });
      const attributes = { name: commit.name, parent_id: commit.parent_id ?? null };
      return Response.json(
        { data: { id: `file-${files.length}`, type: 'file', attributes } },
        { status: 201 },
      );
    }
    const put = /^\/api\/upload\/blocks\/([0-9a-f]{64})$/.exec(url.pathname);
    if (put && method === 'PUT') {
      inFlightPuts += 1;
      maxInFlightPuts = Math.max(maxInFlightPuts, inFlightPuts);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (options.holdPuts) {
          // A block held in transit: the client's cancel aborts it.
          const aborted = new Promise<never>((_, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          );
          await Promise.race([options.holdPuts, aborted]);
        }
        if (sha256(bytes!) !== put[1]) return Response.json({ message: 'hash' }, { status: 422 });
        blocks.set(put[1]!, bytes!);
        return new Response(null, { status: 204 });
      } finally {
        inFlightPuts -= 1;
      }
    }
    return new Response(null, { status: 404 });
  };

  return {
    fetch,
    blocks,
    files,
    requests,
    commits,
    chunkForm,
    maxInFlightPuts: () => maxInFlightPuts,
    inFlightPuts: () => inFlightPuts,
    onCommit: (run: () => void) => (beforeCommit = run),
    /** Bytes the client sent in block PUTs. */
    blockBytesSent: () => requests.filter((r) => r.method === 'PUT').reduce((sum, r) => sum + r.bytes, 0),
  };
}

function setup(server: ReturnType<typeof fakeBlockServer>, overrides: Partial<UploadQueueOptions> = {}) {
  const notices: UploadNotice[] = [];
  const uploaded: UploadedFile[] = [];
  const states: UploadQueueState[] = [];
  const queue = createUploadQueue({
    settings: () => ({
      chunkSize: 64 * MiB,
      uploadLimit: 0,
      mimetypesBlacklist: [],
      subscriptionType: 'fixed',
      canUpload: true,
    }),
    onNotice: (notice) => notices.push(notice),
    onFileUploaded: (file) => uploaded.push(file),
    fetch: server.fetch,
    retryDelay: () => 0,
    // New files of 8 MiB or more go by the delta upload too here, to try its rounds on them.
    delta: { endpoint: '/api/upload/blocks', hashBlocks: hashFileBlocks, minSize: 8 * MiB },
    ...overrides,
  });
  queue.subscribe(() => states.push(queue.getState()));
  const idle = () => vi.waitFor(() => expect(queue.getState().current).toBeNull(), { timeout: 20_000 });
  return { queue, notices, uploaded, states, idle };
}

const replace = (name: string) => new Map([[name, 'replace' as const]]);

/** `data` with a few bytes changed in three places. */
function edited(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = data.slice();
  for (const at of [0.2, 0.5, 0.8]) copy.set([1, 2, 3, 4], Math.floor(data.length * at));
  return copy;
}

describe('SHA-256 without the Web Crypto API', () => {
  it('hashes as node:crypto does, at every padding boundary and for a block-sized buffer', async () => {
    for (const length of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000, MiB + 17]) {
      const bytes = randomBytes(length);
      expect(sha256Fallback(bytes), `length ${length}`).toBe(sha256(bytes));
    }
    expect(sha256Fallback(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    // A view into a larger buffer hashes only its own bytes.
    const big = randomBytes(300);
    expect(sha256Fallback(big.subarray(7, 207))).toBe(sha256(big.subarray(7, 207)));
  });

  it('falls back to it where the page has no crypto.subtle (plain http)', async () => {
    const bytes = randomBytes(5000);
    vi.stubGlobal('crypto', {});
    try {
      expect(await sha256Hex(bytes)).toBe(sha256(bytes));
    } finally {
      vi.unstubAllGlobals();
    }
    expect(await sha256Hex(bytes)).toBe(sha256(bytes));
  });
});

describe('block hashing', () => {
  it('lists the chunker’s blocks of the file with their offsets, sizes and SHA-256', async () => {
    const data = randomBytes(5 * MiB + 333);
    const progress: number[] = [];
    const blocks = await hashFileBlocks(
      new File([data], 'a.bin'),
      (bytes) => progress.push(bytes),
      new AbortController().signal,
    );
    const cuts = chunkBoundaries(data);
    expect(blocks.map((block) => block.offset + block.size)).toEqual(cuts);
    for (const block of blocks)
      expect(block.hash).toBe(sha256(data.subarray(block.offset, block.offset + block.size)));
    expect(progress.at(-1)).toBe(data.length);
  });
});

describe('delta upload', () => {
  it('sends every block of a new file, then only the changed blocks of its replacement', async () => {
    const server = fakeBlockServer();
    const { queue, uploaded, notices, idle } = setup(server);
    const first = randomBytes(12 * MiB);

    queue.add([new File([first], 'model.step')], 'folder-1');
    await idle();
    expect(notices).toEqual([]);
    expect(sha256(server.files[0]!.bytes)).toBe(sha256(first));
    expect(server.blockBytesSent()).toBe(first.length);
    expect(server.commits[0]).toMatchObject({
      name: 'model.step',
      parent_id: 'folder-1',
      size: first.length,
    });
    expect(server.commits[0]!.conflict).toBeUndefined();
    expect(
      server.requests
        .filter((r) => r.method === 'PUT')
        .every((r) => r.path.startsWith('/api/upload/blocks/')),
    ).toBe(true);

    const second = edited(first);
    const sentBefore = server.blockBytesSent();
    queue.add([new File([second], 'model.step')], 'folder-1', replace('model.step'));
    await idle();
    expect(notices).toEqual([]);
    expect(server.files[1]).toMatchObject({ name: 'model.step', conflict: 'replace' });
    expect(sha256(server.files[1]!.bytes)).toBe(sha256(second));
    const sent = server.blockBytesSent() - sentBefore;
    expect(sent).toBeGreaterThan(0);
    // Three edits touch at most two blocks each (an edit on a cut), of about a mebibyte.
    expect(sent).toBeLessThan(second.length / 2);
    expect(server.chunkForm).toEqual([]);
    expect(uploaded.map((file) => file.id)).toEqual(['file-1', 'file-2']);
  });

  it('sends a block the file holds twice once, and commits it twice', async () => {
    const server = fakeBlockServer();
    const { queue, idle } = setup(server);
    const half = randomBytes(8 * MiB);
    const doubled = new Uint8Array(16 * MiB);
    doubled.set(half);
    doubled.set(half, half.length);

    queue.add([new File([doubled], 'twice.bin')], null, replace('twice.bin'));
    await idle();
    expect(sha256(server.files[0]!.bytes)).toBe(sha256(doubled));
    const commit = server.commits[0]!;
    expect(new Set(commit.blocks).size).toBeLessThan(commit.blocks.length);
    const puts = server.requests.filter((r) => r.method === 'PUT').map((r) => r.path);
    expect(new Set(puts).size).toBe(puts.length);
    expect(server.blockBytesSent()).toBeLessThan(doubled.length * 0.75);
  });

  it('shows hashing, then sending, then processing, and sends two or three blocks at a time', async () => {
    const server = fakeBlockServer();
    const { queue, states, idle } = setup(server);
    queue.add([new File([randomBytes(12 * MiB)], 'big.bin')], null);
    await idle();

    const phases = states
      .filter((state) => state.current)
      .map((state) => (state.processing ? 'processing' : state.phase));
    const order = phases.filter((phase, i) => phase !== phases[i - 1]);
    // Queued, hashing, sending the blocks, waiting for the commit, then the stored file's count moves on.
    expect(order).toEqual(['sending', 'hashing', 'sending', 'processing', 'sending']);
    const hashing = states
      .filter((state) => state.current && state.phase === 'hashing')
      .map((s) => s.progress);
    expect(hashing).toEqual([...hashing].sort((a, b) => a - b));
    expect(hashing.at(-1)).toBe(100);
    const sending = states
      .filter((state) => state.current && state.phase === 'sending' && !state.processing)
      .map((s) => s.progress)
      .slice(1);
    expect(sending).toEqual([...sending].sort((a, b) => a - b));
    expect(sending.some((p) => p > 0 && p < 100)).toBe(true);
    expect(server.maxInFlightPuts()).toBeGreaterThanOrEqual(2);
    expect(server.maxInFlightPuts()).toBeLessThanOrEqual(3);
  });

  it('sends the blocks a 409 names and commits again', async () => {
    const server = fakeBlockServer();
    const { queue, notices, idle } = setup(server);
    const data = randomBytes(9 * MiB);
    let dropped = '';
    server.onCommit(() => {
      dropped = [...server.blocks.keys()][1]!;
      server.blocks.delete(dropped);
    });

    queue.add([new File([data], 'lost.bin')], null);
    await idle();
    expect(notices).toEqual([]);
    expect(server.commits).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === `/api/upload/blocks/${dropped}`)).toHaveLength(2);
    expect(sha256(server.files[0]!.bytes)).toBe(sha256(data));
  });

  it('retries a block that failed in transit or met a passing server trouble', async () => {
    const server = fakeBlockServer({
      faults: [
        { path: /^\/api\/upload\/blocks\/[0-9a-f]{64}$/, reply: 'network-error' },
        { path: /^\/api\/upload\/blocks\/[0-9a-f]{64}$/, reply: 503 },
        { path: /^\/api\/upload\/blocks\/commit$/, reply: 'network-error' },
      ],
    });
    const { queue, notices, idle } = setup(server);
    const data = randomBytes(9 * MiB);
    queue.add([new File([data], 'flaky.bin')], null);
    await idle();
    expect(notices).toEqual([]);
    expect(sha256(server.files[0]!.bytes)).toBe(sha256(data));
  });

  it('stops sending every block once one cannot be sent, and files nothing', async () => {
    const data = randomBytes(24 * MiB);
    const file = new File([data], 'unreachable.bin');
    const [first] = await hashFileBlocks(file, () => {}, new AbortController().signal);
    // The first block never gets through, however often it is tried.
    const server = fakeBlockServer({
      faults: [{ path: new RegExp(`/${first!.hash}$`), reply: 'network-error', times: 100 }],
    });
    const { queue, notices, idle } = setup(server);
    queue.add([file], null);
    await idle();
    expect(notices).toHaveLength(1);
    const puts = () => server.requests.filter((r) => r.method === 'PUT').length;
    const afterFailure = puts();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(puts()).toBe(afterFailure);
    // Most of the file's blocks were never sent.
    expect(server.blockBytesSent()).toBeLessThan(data.length / 2);
    expect(server.commits).toEqual([]);
  });

  it('sends a file of more blocks than one commit may name by the chunk form', async () => {
    const server = fakeBlockServer();
    const data = randomBytes(BLOCKS_MAX_HASHES + 1);
    // Blocks of one byte each: one more than a commit may list.
    const oneByteBlocks: HashBlocks = () =>
      Promise.resolve(
        Array.from(data, (_, offset) => ({
          offset,
          size: 1,
          hash: sha256(data.subarray(offset, offset + 1)),
        })),
      );
    const { queue, notices, idle } = setup(server, {
      delta: { endpoint: '/api/upload/blocks', hashBlocks: oneByteBlocks, minSize: 1 },
    });
    queue.add([new File([data], 'huge.bin')], null);
    await idle();
    expect(notices).toEqual([]);
    expect(server.commits).toEqual([]);
    expect(server.chunkForm).toEqual(['huge.bin']);
  });

  it('turns a refusal into the chunk form’s notice and files nothing', async () => {
    const server = fakeBlockServer({
      faults: [{ path: /^\/api\/upload\/blocks\/[0-9a-f]{64}$/, reply: 423 }],
    });
    const { queue, notices, idle } = setup(server);
    queue.add([new File([randomBytes(9 * MiB)], 'full.bin')], null);
    await idle();
    expect(notices).toEqual([{ kind: 'storage-limit' }]);
    expect(server.commits).toEqual([]);
  });

  it('stops on cancel: the worker’s hashing and the blocks in flight, with nothing committed', async () => {
    // Blocks stay in transit until released, so the cancel meets them there.
    let release!: () => void;
    const server = fakeBlockServer({ holdPuts: new Promise<void>((resolve) => (release = resolve)) });
    let hashingStarted!: () => void;
    const started = new Promise<void>((resolve) => (hashingStarted = resolve));
    const hashBlocks: HashBlocks = (file, onProgress, signal) => {
      hashingStarted();
      return hashFileBlocks(file, onProgress, signal);
    };
    const { queue, idle } = setup(server, {
      delta: { endpoint: '/api/upload/blocks', hashBlocks, minSize: 8 * MiB },
    });
    queue.add([new File([randomBytes(12 * MiB)], 'stop.bin')], null);
    await started;
    queue.cancel();
    await idle();
    expect(queue.getState()).toMatchObject({ current: null, progress: 0, phase: 'sending' });

    // Cancelled while sending blocks.
    queue.add([new File([randomBytes(12 * MiB)], 'stop2.bin')], null);
    await vi.waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true), {
      timeout: 20_000,
    });
    queue.cancel();
    release();
    await vi.waitFor(() => expect(server.inFlightPuts()).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.commits).toEqual([]);
    expect(server.files).toEqual([]);
  });

  it('goes by the chunk form where the server offers no delta upload, for new files and in folder uploads', async () => {
    const older = fakeBlockServer({ offersDelta: false });
    const first = setup(older);
    first.queue.add([new File([randomBytes(9 * MiB)], 'old-server.bin')], null);
    await first.idle();
    expect(older.chunkForm).toEqual(['old-server.bin']);
    expect(first.notices).toEqual([]);

    const server = fakeBlockServer();
    const { queue, idle } = setup(server);
    queue.add([new File([randomBytes(1000)], 'small.txt')], null);
    queue.add([{ file: new File([randomBytes(9 * MiB)], 'deep.bin'), path: '/A/deep.bin' }], null);
    await idle();
    expect(server.chunkForm).toEqual(['small.txt', 'deep.bin']);
    expect(server.commits).toEqual([]);

    // Unless told a size, a new file goes by the chunk form however large it is.
    const plain = setup(server, { delta: { endpoint: '/api/upload/blocks', hashBlocks: hashFileBlocks } });
    plain.queue.add([new File([randomBytes(12 * MiB)], 'large.bin')], null);
    await plain.idle();
    expect(server.chunkForm).toEqual(['small.txt', 'deep.bin', 'large.bin']);
    expect(server.commits).toEqual([]);

    // A small file that replaces one goes by the delta upload.
    queue.add([new File([randomBytes(1000)], 'small.txt')], null, replace('small.txt'));
    await idle();
    expect(server.commits.map((commit) => commit.name)).toEqual(['small.txt']);
  });

  it('is not used where the source offers none (a share, an upload request)', async () => {
    const server = fakeBlockServer();
    const { queue, idle } = setup(server, { delta: undefined });
    queue.add([new File([randomBytes(9 * MiB)], 'visitor.bin')], null, replace('visitor.bin'));
    await idle();
    expect(server.chunkForm).toEqual(['visitor.bin']);
    expect(server.requests.some((r) => r.path.startsWith('/api/upload/blocks'))).toBe(false);
  });
});
