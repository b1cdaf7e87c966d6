import { describe, expect, it, vi } from 'vitest';
import {
  createUploadQueue,
  type UploadNotice,
  type UploadQueueOptions,
  type UploadQueueState,
  type UploadSettings,
  type UploadedFile,
} from '../../src/lib/upload-queue';

/** One chunk as the fake server received it. */
interface ChunkRequest {
  name: string;
  extension: string;
  isLast: boolean;
  path: string | null;
  parentId: string | null;
  offset: number | null;
  partName: string;
  bytes: string;
  xsrf: string | null;
  fieldOrder: string[];
}

/** 'answer-lost': the chunk is stored, then the connection drops before the answer arrives. */
type Reply = 'ok' | 'network-error' | 'answer-lost' | number;

// jsdom's Blob has no text(); its FileReader reads the bytes the queue sliced.
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/**
 * A tiny in-memory stand-in for POST /api/upload/chunks: it reads the multipart form the queue
 * builds, appends each chunk's bytes under the upload key (the chunk's filename) and answers like
 * the API addendum (204 for a middle chunk, 201 with the file resource for the last one), with the
 * server's rule for `offset` (docs/api.md): the last stored chunk sent again is answered as before,
 * any other chunk that does not start where the upload ends is a 409 naming the bytes stored.
 */
function fakeChunkServer(
  reply: (request: ChunkRequest, index: number) => Reply | Promise<Reply> = () => 'ok',
) {
  const requests: ChunkRequest[] = [];
  const stored = new Map<string, string>();
  const filed = new Map<string, UploadedFile>();
  let inFlight = 0;
  let maxInFlight = 0;
  let nextId = 0;

  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const form = init?.body as FormData;
    const signal = init?.signal ?? undefined;
    const chunk = form.get('chunk') as File;
    const headers = new Headers(init?.headers);
    const request: ChunkRequest = {
      name: String(form.get('name')),
      extension: String(form.get('extension')),
      isLast: form.get('is_last_chunk') === '1',
      path: form.has('path') ? String(form.get('path')) : null,
      parentId: form.has('parent_id') ? String(form.get('parent_id')) : null,
      offset: form.has('offset') ? Number(form.get('offset')) : null,
      partName: chunk.name,
      bytes: await readText(chunk),
      xsrf: headers.get('X-XSRF-TOKEN'),
      fieldOrder: [...form.keys()],
    };
    requests.push(request);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const aborted = new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
      const decision = await Promise.race([Promise.resolve(reply(request, requests.length - 1)), aborted]);
      if (decision === 'network-error') throw new TypeError('Failed to fetch');
      if (typeof decision === 'number') {
        return Response.json({ message: `refused with ${decision}`, code: 'refused' }, { status: decision });
      }
      const held = stored.get(request.partName) ?? '';
      const answer = (file = filed.get(request.partName)) =>
        file ? Response.json({ data: file }, { status: 201 }) : new Response(null, { status: 204 });
      if (request.offset !== null && request.offset !== held.length) {
        const repeated =
          request.offset + request.bytes.length === held.length && held.endsWith(request.bytes);
        if (repeated && request.bytes.length > 0) return answer();
        const refusal = {
          message: 'elsewhere',
          code: 'upload_offset_mismatch',
          meta: { received_bytes: held.length },
        };
        return Response.json(refusal, { status: 409 });
      }
      stored.set(request.partName, held + request.bytes);
      if (request.isLast) {
        nextId += 1;
        const attributes = { name: request.name, parent_id: request.parentId };
        filed.set(request.partName, { id: `file-${nextId}`, type: 'file', attributes });
      }
      if (decision === 'answer-lost') throw new TypeError('Failed to fetch');
      return answer();
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch, requests, stored, maxInFlight: () => maxInFlight };
}

const baseSettings: UploadSettings = {
  chunkSize: 4,
  uploadLimit: 0,
  mimetypesBlacklist: [],
  subscriptionType: 'fixed',
  canUpload: true,
};

function setup(
  server: ReturnType<typeof fakeChunkServer>,
  overrides: Partial<UploadQueueOptions> = {},
  settings: Partial<UploadSettings> = {},
) {
  const notices: UploadNotice[] = [];
  const uploaded: UploadedFile[] = [];
  const states: UploadQueueState[] = [];
  const onFolderUploaded = vi.fn();
  const queue = createUploadQueue({
    settings: () => ({ ...baseSettings, ...settings }),
    onNotice: (notice) => notices.push(notice),
    onFileUploaded: (file) => uploaded.push(file),
    onFolderUploaded,
    fetch: server.fetch,
    retryDelay: () => 0,
    ...overrides,
  });
  queue.subscribe(() => states.push(queue.getState()));
  const idle = () => vi.waitFor(() => expect(queue.getState().current).toBeNull());
  return { queue, notices, uploaded, states, onFolderUploaded, idle };
}

function deferred() {
  let release!: (reply: Reply) => void;
  const promise = new Promise<Reply>((resolve) => (release = resolve));
  return { promise, release };
}

const file = (content: string, name: string, type = 'text/plain') => new File([content], name, { type });

describe('upload queue', () => {
  it('sends a file in chunks of chunkSize with the last one flagged, under one upload key', async () => {
    const server = fakeChunkServer();
    const { queue, uploaded, idle } = setup(server);

    queue.add([file('abcdefghij', 'notes.txt')], 'folder-1');
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'efgh', 'ij']);
    expect(server.requests.map((r) => r.isLast)).toEqual([false, false, true]);
    expect(server.requests.map((r) => r.offset)).toEqual([0, 4, 8]);
    const keys = new Set(server.requests.map((r) => r.partName));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-z]{16}-notes\.txt\.part$/);
    for (const request of server.requests) {
      expect(request).toMatchObject({
        name: 'notes.txt',
        extension: 'txt',
        parentId: 'folder-1',
        path: null,
      });
      // Fields first, bytes last: the server can refuse a chunk before storing anything.
      expect(request.fieldOrder.at(-1)).toBe('chunk');
    }
    expect(server.stored.get([...keys][0]!)).toBe('abcdefghij');
    expect(uploaded).toEqual([expect.objectContaining({ id: 'file-1', type: 'file' })]);
  });

  it('uploads one file at a time, in the order given', async () => {
    const server = fakeChunkServer();
    const { queue, uploaded, idle } = setup(server);

    queue.add([file('12345678', 'a.txt'), file('123456789', 'b.txt')], null);
    queue.add([file('xy', 'c.txt')], null);
    await idle();

    expect(server.maxInFlight()).toBe(1);
    expect(server.requests.map((r) => r.name)).toEqual([
      'a.txt',
      'a.txt',
      'b.txt',
      'b.txt',
      'b.txt',
      'c.txt',
    ]);
    expect(uploaded.map((f) => f.attributes.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(server.requests.every((r) => r.parentId === null)).toBe(true);
  });

  it('reports whole-percent progress capped at 100, then processing until the server answers', async () => {
    const lastAnswer = deferred();
    const server = fakeChunkServer((request) => (request.isLast ? lastAnswer.promise : 'ok'));
    const { queue, states, idle } = setup(server, {}, { chunkSize: 3 });

    queue.add([file('abcdefg', 'seven.bin')], null);
    await vi.waitFor(() => expect(queue.getState().processing).toBe(true));

    expect(queue.getState()).toMatchObject({ progress: 100, processing: true, uploaded: 0, total: 1 });
    const progress = states.filter((s) => s.current).map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.every((p) => Number.isInteger(p) && p >= 0 && p <= 100)).toBe(true);
    expect(progress).toContain(42); // 3 of 7 bytes
    expect(progress).toContain(85); // 6 of 7 bytes

    lastAnswer.release('ok');
    await idle();
    expect(queue.getState()).toEqual({
      items: [],
      current: null,
      progress: 0,
      phase: 'sending',
      processing: false,
      uploaded: 0,
      total: 0,
    });
  });

  it('counts files of the run while several are queued', async () => {
    const secondFile = deferred();
    const server = fakeChunkServer((request) => (request.name === 'b.txt' ? secondFile.promise : 'ok'));
    const { queue, idle } = setup(server);

    queue.add([file('aa', 'a.txt'), file('bb', 'b.txt')], null);
    await vi.waitFor(() => expect(queue.getState().current?.name).toBe('b.txt'));
    expect(queue.getState()).toMatchObject({ uploaded: 1, total: 2 });
    expect(queue.getState().items.map((i) => i.name)).toEqual(['b.txt']);

    secondFile.release('ok');
    await idle();
  });

  it('retries a chunk that failed in transit, up to three times', async () => {
    let failures = 2;
    const server = fakeChunkServer((request) =>
      request.bytes === 'efgh' && failures-- > 0 ? 'network-error' : 'ok',
    );
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'retry.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'efgh', 'efgh', 'efgh', 'ij']);
    expect(uploaded).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('sends a chunk again whose answer was lost, and the server keeps it once', async () => {
    const lost = new Set(['efgh', 'ij']);
    const server = fakeChunkServer((request) => (lost.delete(request.bytes) ? 'answer-lost' : 'ok'));
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'lost.txt')], null);
    await idle();

    expect(server.requests.map((r) => [r.bytes, r.offset])).toEqual([
      ['abcd', 0],
      ['efgh', 4],
      ['efgh', 4],
      ['ij', 8],
      ['ij', 8],
    ]);
    expect([...server.stored.values()]).toEqual(['abcdefghij']);
    expect(uploaded).toEqual([expect.objectContaining({ id: 'file-1' })]);
    expect(notices).toEqual([]);
  });

  it('goes on from where the server says its copy ends (409)', async () => {
    let swept = false;
    const server = fakeChunkServer((request) => {
      // The server lost the upload after its first chunk (swept as abandoned): it holds nothing.
      if (request.bytes === 'efgh' && !swept) swept = server.stored.delete(request.partName);
      return 'ok';
    });
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'resumed.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.offset)).toEqual([0, 4, 0, 4, 8]);
    expect([...server.stored.values()]).toEqual(['abcdefghij']);
    expect(uploaded).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('gives up with the generic alert when the server keeps losing the upload', async () => {
    const server = fakeChunkServer((request) => {
      if (request.bytes === 'efgh') server.stored.delete(request.partName);
      return 'ok';
    });
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'lost.txt'), file('zz', 'next.txt')], null);
    await idle();

    // Three times it goes on from the start; the fourth 409 stops the queue.
    expect(server.requests.map((r) => r.offset)).toEqual([0, 4, 0, 4, 0, 4, 0, 4]);
    expect(notices).toEqual([{ kind: 'generic' }]);
    expect(uploaded).toEqual([]);
  });

  it('retries a passing server trouble (503) and gives up with the generic alert after three retries', async () => {
    const server = fakeChunkServer(() => 503);
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'down.txt'), file('zz', 'next.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'abcd', 'abcd', 'abcd']);
    expect(notices).toEqual([{ kind: 'generic' }]);
    expect(uploaded).toEqual([]);
  });

  it.each([
    [500, { kind: 'generic' }],
    [422, { kind: 'blacklisted', type: 'exe' }],
    [423, { kind: 'storage-limit' }],
    [413, { kind: 'payload-too-large' }],
    [401, { kind: 'server-message', message: 'refused with 401' }],
    [410, { kind: 'server-message', message: 'refused with 410' }],
  ])('stops at once on %i with its alert and drops the rest of the queue', async (status, notice) => {
    const server = fakeChunkServer((request) => (request.bytes === 'efgh' ? status : 'ok'));
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'tool.exe', 'application/octet-stream'), file('zz', 'next.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'efgh']);
    expect(notices).toEqual([notice]);
    expect(uploaded).toEqual([]);
    expect(queue.getState()).toMatchObject({ items: [], progress: 0, total: 0 });
  });

  it('goes on in chunks of the size the server takes now when the admin lowered it while the upload ran (413)', async () => {
    // The server took 4-byte chunks when the upload began; then only 3.
    let limit = 4;
    const server = fakeChunkServer((request) => {
      const answer = request.bytes.length > limit ? 413 : 'ok';
      if (request.offset === 0) limit = 3;
      return answer;
    });
    const refreshSettings = vi.fn(async () => ({ ...baseSettings, chunkSize: limit }));
    const { queue, uploaded, notices, idle } = setup(server, { refreshSettings });

    queue.add([file('abcdefghij', 'resized.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'efgh', 'efg', 'hij']);
    expect(server.requests.map((r) => r.offset)).toEqual([0, 4, 4, 7]);
    expect([...server.stored.values()]).toEqual(['abcdefghij']);
    expect(refreshSettings).toHaveBeenCalledTimes(1);
    expect(uploaded).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('ends the upload on a 413 the chunk size does not explain, with its alert', async () => {
    const server = fakeChunkServer((request) => (request.bytes === 'efgh' ? 413 : 'ok'));
    const refreshSettings = vi.fn(async () => baseSettings);
    const { queue, uploaded, notices, idle } = setup(server, { refreshSettings });

    queue.add([file('abcdefghij', 'too-big.txt')], null);
    await idle();

    expect(server.requests.map((r) => r.bytes)).toEqual(['abcd', 'efgh']);
    expect(notices).toEqual([{ kind: 'payload-too-large' }]);
    expect(uploaded).toEqual([]);
  });

  it('cancel aborts the chunk in flight, drops the queue and clears progress', async () => {
    const server = fakeChunkServer((request) =>
      request.bytes === 'efgh' ? new Promise<Reply>(() => {}) : 'ok',
    );
    const { queue, uploaded, notices, idle } = setup(server);

    queue.add([file('abcdefghij', 'big.txt'), file('zz', 'next.txt')], null);
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    expect(queue.getState().progress).toBe(40);

    queue.cancel();
    await idle();
    expect(queue.getState()).toEqual({
      items: [],
      current: null,
      progress: 0,
      phase: 'sending',
      processing: false,
      uploaded: 0,
      total: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.requests).toHaveLength(2);
    expect(uploaded).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('a new upload after a cancel starts cleanly', async () => {
    const server = fakeChunkServer((request) =>
      request.name === 'stuck.txt' ? new Promise<Reply>(() => {}) : 'ok',
    );
    const { queue, uploaded, idle } = setup(server);

    queue.add([file('abc', 'stuck.txt')], null);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    queue.cancel();
    queue.add([file('abc', 'fresh.txt')], null);
    await idle();

    expect(uploaded.map((f) => f.attributes.name)).toEqual(['fresh.txt']);
  });

  it('refuses zero-byte files with a toast naming them, skips .DS_Store silently and ignores an empty list', async () => {
    const server = fakeChunkServer();
    const { queue, notices, uploaded, idle, states } = setup(server);

    queue.add([], null);
    expect(states).toEqual([]);

    queue.add([file('', 'empty.txt'), file('meta', '.DS_Store'), file('ok', 'kept.txt')], null);
    await idle();

    expect(notices).toEqual([{ kind: 'zero-byte', name: 'empty.txt' }]);
    expect(server.requests.map((r) => r.name)).toEqual(['kept.txt']);
    expect(uploaded).toHaveLength(1);
  });

  it('replaces whitespace in names with hyphens', async () => {
    const server = fakeChunkServer();
    const { queue, idle } = setup(server);

    queue.add([file('hello', 'my holiday\tphoto.JPG', 'image/jpeg')], null);
    await idle();

    expect(server.requests[0]).toMatchObject({ name: 'my-holiday-photo.JPG', extension: 'jpg' });
    expect(server.requests[0]!.partName).toMatch(/^[0-9a-z]{16}-my-holiday-photo\.JPG\.part$/);
  });

  it('refuses blacklisted types and extensions before sending anything, naming the type', async () => {
    const server = fakeChunkServer();
    const { queue, notices, uploaded, idle } = setup(
      server,
      {},
      { mimetypesBlacklist: ['exe', 'application/x-php'] },
    );

    queue.add(
      [
        file('mz', 'setup.EXE', 'application/octet-stream'),
        file('x', 'page.txt', 'application/x-php'),
        file('ok', 'fine.txt'),
      ],
      null,
    );
    await idle();

    expect(notices).toEqual([{ kind: 'blacklisted', type: 'exe' }]);
    expect(server.requests.map((r) => r.name)).toEqual(['fine.txt']);
    expect(uploaded).toHaveLength(1);
  });

  it('refuses files above uploadLimit; 0 means no limit', async () => {
    const limited = setup(fakeChunkServer(), {}, { uploadLimit: 5 });
    limited.queue.add([file('123456', 'six.txt'), file('12345', 'five.txt')], null);
    await limited.idle();
    expect(limited.notices).toEqual([{ kind: 'over-upload-limit', name: 'six.txt', limit: 5 }]);
    expect(limited.uploaded.map((f) => f.attributes.name)).toEqual(['five.txt']);

    const unlimited = setup(fakeChunkServer(), {}, { uploadLimit: 0 });
    unlimited.queue.add([file('1234567890', 'ten.txt')], null);
    await unlimited.idle();
    expect(unlimited.notices).toEqual([]);
    expect(unlimited.uploaded).toHaveLength(1);
  });

  it('refuses everything when the user may not upload, with the alert of the subscription type', () => {
    const server = fakeChunkServer();
    const fixed = setup(server, {}, { canUpload: false, subscriptionType: 'fixed' });
    fixed.queue.add([file('a', 'a.txt')], null);
    expect(fixed.notices).toEqual([{ kind: 'upload-disabled' }]);

    const none = setup(server, {}, { canUpload: false, subscriptionType: 'none' });
    none.queue.add([file('a', 'a.txt')], null);
    expect(none.notices).toEqual([{ kind: 'exceed-upload-limit' }]);
    expect(server.requests).toEqual([]);
  });

  it('sends the folder path of a folder upload and asks for a reload once the queue is empty', async () => {
    const secondFile = deferred();
    const server = fakeChunkServer((request) => (request.name === 'b-c.txt' ? secondFile.promise : 'ok'));
    const { queue, onFolderUploaded, uploaded, idle } = setup(server);

    queue.add(
      [
        { file: file('one', 'a.txt'), path: '/Holiday/Day 1/a.txt' },
        { file: file('two', 'b c.txt'), path: 'Holiday/b c.txt' },
      ],
      'folder-9',
    );
    await vi.waitFor(() => expect(uploaded).toHaveLength(1));
    expect(onFolderUploaded).not.toHaveBeenCalled();
    secondFile.release('ok');
    await idle();

    expect(server.requests.map((r) => [r.path, r.parentId])).toEqual([
      ['/Holiday/Day 1/a.txt', 'folder-9'],
      ['/Holiday/b-c.txt', 'folder-9'],
    ]);
    expect(onFolderUploaded).toHaveBeenCalledTimes(1);
  });

  it('does not ask for a folder reload after plain file uploads', async () => {
    const { queue, onFolderUploaded, idle } = setup(fakeChunkServer());
    queue.add([file('x', 'x.txt')], null);
    await idle();
    expect(onFolderUploaded).not.toHaveBeenCalled();
  });

  it('echoes the XSRF header read for every chunk', async () => {
    const server = fakeChunkServer();
    const { queue, idle } = setup(server, { headers: () => ({ 'X-XSRF-TOKEN': 'token-1' }) });
    queue.add([file('abcdef', 'x.txt')], null);
    await idle();
    expect(server.requests.map((r) => r.xsrf)).toEqual(['token-1', 'token-1']);
  });
});
