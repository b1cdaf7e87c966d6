import type { ErrorBody, SubscriptionType, UploadConflict } from '@atelier/contracts';
import { CHUNK_UPLOAD_RETRIES, UPLOAD_PROGRESS_CAP } from '@atelier/contracts/constants';
import { useSyncExternalStore } from 'react';
import type { HashBlocks } from './block-hashes';

/**
 * The client upload queue of the description (sections 4 and 5): files go one at a time, cut into
 * chunks of `chunkSize`, each chunk a multipart POST; the last chunk is flagged and answered with the
 * stored file. Every chunk says where it starts (`offset`), so a chunk sent again after its answer
 * was lost is not stored twice, and a 409 tells where the server's copy ends, to go on from there.
 * Where the source offers it, a replacement goes by the delta upload instead (delta-upload.ts):
 * hashed in a worker, only the blocks the server lacks are sent.
 * Framework-free so its rules can be tested against a fake server; `useUploadQueue` is the React
 * binding.
 */

/** What the queue needs to know at the moment files are added (config and the user's restrictions). */
export interface UploadSettings {
  chunkSize: number;
  /** Bytes; 0 means no limit. */
  uploadLimit: number;
  mimetypesBlacklist: readonly string[];
  subscriptionType: SubscriptionType;
  canUpload: boolean;
}

/** One file to upload; `path` is set for folder uploads (`/A/B/file.txt`, folders made under parentId). */
export interface UploadSource {
  file: File;
  path?: string;
}

/** The file resource the server answers to the last chunk (only the fields the queue reads). */
export interface UploadedFile {
  id: string;
  type: string;
  attributes: { name: string; parent_id: string | null } & Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

/** Something the user must be told; the UI turns it into an alert popup or a toast. */
export type UploadNotice =
  | { kind: 'zero-byte'; name: string }
  | { kind: 'blacklisted'; type: string }
  | { kind: 'over-upload-limit'; name: string; limit: number }
  | { kind: 'upload-disabled' }
  | { kind: 'exceed-upload-limit' }
  | { kind: 'storage-limit' }
  | { kind: 'payload-too-large' }
  | { kind: 'server-message'; message: string }
  | { kind: 'generic' };

export interface QueuedUpload {
  key: string;
  name: string;
  size: number;
  parentId: string | null;
  path: string | null;
  /** What the server does if the folder holds the name (null: its default, keep both). */
  conflict: UploadConflict | null;
}

export interface UploadQueueState {
  /** Files still to send, the current one first. */
  items: readonly QueuedUpload[];
  current: QueuedUpload | null;
  /** Whole percent of the current file, capped at 100 (of hashing it, then of sending it). */
  progress: number;
  /** `hashing`: a delta upload cuts and hashes the file before sending what the server lacks. */
  phase: 'hashing' | 'sending';
  /** True once every byte of the current file is sent and the server has not answered yet. */
  processing: boolean;
  /** Files of this run already stored, and the run's total; both reset when the queue empties. */
  uploaded: number;
  total: number;
}

export interface UploadQueueOptions {
  settings: () => UploadSettings;
  /**
   * The settings read again from the server: a chunk refused as too large (413) may only be larger
   * than a chunk size the admin lowered while the upload ran, and the rest then goes in chunks of the
   * new size. Without it a 413 ends the upload.
   */
  refreshSettings?: () => Promise<UploadSettings>;
  onNotice: (notice: UploadNotice) => void;
  /** A file was stored; `source` says where it was queued from. */
  onFileUploaded?: (file: UploadedFile, source: QueuedUpload) => void;
  /** The queue emptied after storing at least one file of a folder upload. */
  onFolderUploaded?: () => void;
  /** Extra request headers (XSRF echo); read for every chunk. */
  headers?: () => Record<string, string>;
  endpoint?: string;
  fetch?: typeof fetch;
  /** Pause before retry number `attempt` (1-based). */
  retryDelay?: (attempt: number) => number;
  /**
   * The delta upload's routes (`/api/upload/blocks`), where the source offers it (signed-in places,
   * not a share or an upload request). Used for a file replacing one of its name, except in folder
   * uploads; a new file goes by the chunk form, whatever its size, unless it has `minSize` bytes or more
   * (no size unless said: a block PUT costs the server more per byte than a chunk, and a new file has
   * no blocks to skip).
   */
  delta?: { endpoint: string; minSize?: number; hashBlocks?: HashBlocks };
}

export interface UploadQueue {
  /**
   * Checks the files, queues the acceptable ones into `parentId` and starts sending; `conflicts`
   * says, by (hyphenated) name, what to do with a file of `parentId` of that name.
   */
  add(
    sources: readonly (File | UploadSource)[],
    parentId: string | null,
    conflicts?: ReadonlyMap<string, UploadConflict>,
  ): void;
  /** Aborts the file in flight, drops the rest and clears progress. */
  cancel(): void;
  getState(): UploadQueueState;
  subscribe(listener: () => void): () => void;
}

const IGNORED_NAMES = new Set(['.DS_Store']);
// Refusals that a retry cannot change: the server said no on purpose.
const STATUS_NOTICE: Record<number, (refusal: { message: string; type: string }) => UploadNotice> = {
  500: () => ({ kind: 'generic' }),
  422: ({ type }) => ({ kind: 'blacklisted', type }),
  423: () => ({ kind: 'storage-limit' }),
  413: () => ({ kind: 'payload-too-large' }),
  401: ({ message }) => ({ kind: 'server-message', message }),
  // A share or upload request that closed or expired mid-upload: the server says which.
  410: ({ message }) => ({ kind: 'server-message', message }),
};

const idleState: UploadQueueState = {
  items: [],
  current: null,
  progress: 0,
  phase: 'sending',
  processing: false,
  uploaded: 0,
  total: 0,
};

export function hyphenateWhitespace(name: string): string {
  return name.replace(/\s/g, '-');
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The upload's key on the server: 16 random base36 characters, the name, `.part`. */
export function chunkFileName(name: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const random = Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
  return `${random}-${name}.part`;
}

/** The blacklisted entry matching the file's extension, MIME type or MIME subtype, if any. */
export function blacklistedType(file: File, blacklist: readonly string[]): string | null {
  const listed = new Set(blacklist.map((entry) => entry.trim().toLowerCase()).filter(Boolean));
  const mime = file.type.toLowerCase();
  const candidates = [extensionOf(file.name), mime, mime.split('/')[1] ?? ''];
  return candidates.find((candidate) => candidate && listed.has(candidate)) ?? null;
}

function toSource(entry: File | UploadSource): UploadSource {
  return entry instanceof File ? { file: entry } : entry;
}

/** The folder-upload path with its file name hyphenated like `name`, always starting with `/`. */
function normalisePath(path: string | undefined, name: string): string | null {
  if (!path) return null;
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2) return null;
  segments[segments.length - 1] = name;
  return `/${segments.join('/')}`;
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(abortError());
    });
  });
}

/**
 * What the queue reads of a refusal's body (its message, and the stored bytes of a 409); any
 * other shape counts as an empty body. Read by hand, not with the schema, so zod stays out of the
 * file manager's first load.
 */
async function errorAnswer(response: Response): Promise<Partial<ErrorBody>> {
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null) return {};
  const { message, meta } = body as Record<string, unknown>;
  const received = (meta as Record<string, unknown> | undefined)?.received_bytes;
  return {
    ...(typeof message === 'string' && { message }),
    ...(typeof received === 'number' && { meta: { received_bytes: received } }),
  };
}

/** Where the server's copy of an upload ends, from its 409 answer; null when it does not say. */
function storedBytes(answer: Partial<ErrorBody>): number | null {
  const received = answer.meta?.received_bytes;
  return received !== undefined && Number.isSafeInteger(received) && received >= 0 ? received : null;
}

type Outcome = { ok: true; file: UploadedFile } | { ok: false; notice: UploadNotice | null };

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const endpoint = options.endpoint ?? '/api/upload/chunks';
  const retryDelay = options.retryDelay ?? ((attempt: number) => 500 * 2 ** (attempt - 1));
  const listeners = new Set<() => void>();
  let state = idleState;
  let pending: { source: UploadSource; entry: QueuedUpload }[] = [];
  let controller: AbortController | null = null;
  let running = false;
  let folderUploadDone = false;
  let keySeed = 0;

  function setState(patch: Partial<UploadQueueState>) {
    state = { ...state, ...patch };
    listeners.forEach((listener) => listener());
  }

  function send(url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    const doFetch = options.fetch ?? globalThis.fetch;
    return doFetch(url, {
      method: 'POST',
      ...init,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        ...(init.headers as Record<string, string> | undefined),
        ...options.headers?.(),
      },
      signal,
    });
  }

  /** Sends one request; network failures and passing server troubles are retried up to three times. */
  async function sendRetrying(url: string, build: () => RequestInit, signal: AbortSignal): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      // Nothing more is sent once the upload is stopped (an attempt may follow a wait).
      signal.throwIfAborted();
      try {
        const response = await send(url, build(), signal);
        if (response.ok || STATUS_NOTICE[response.status] || attempt >= CHUNK_UPLOAD_RETRIES) return response;
        if (response.status < 500 && response.status !== 408 && response.status !== 429) return response;
      } catch (error) {
        if (signal.aborted || attempt >= CHUNK_UPLOAD_RETRIES) throw error;
      }
      await sleep(retryDelay(attempt + 1), signal);
    }
  }

  /** Whether the file goes by the delta upload: a replacement (or a new file of `minSize`), not in a folder upload. */
  function byDelta(entry: QueuedUpload): boolean {
    const delta = options.delta;
    if (!delta || entry.path) return false;
    return entry.conflict === 'replace' || (delta.minSize !== undefined && entry.size >= delta.minSize);
  }

  /** A refusal's notice, as the chunk form's. */
  async function refusalNotice(response: Response, entry: QueuedUpload, file: File): Promise<UploadNotice> {
    const answer = await errorAnswer(response);
    const refusal = { message: answer.message ?? '', type: extensionOf(entry.name) || file.type };
    return STATUS_NOTICE[response.status]?.(refusal) ?? { kind: 'generic' };
  }

  /** The delta upload of one file; null when the server does not offer it here (the chunk form goes). */
  async function uploadDelta(file: File, entry: QueuedUpload, signal: AbortSignal): Promise<Outcome | null> {
    const delta = options.delta!;
    const percent = (part: number, whole: number) =>
      whole > 0 ? Math.min(UPLOAD_PROGRESS_CAP, Math.floor((part / whole) * 100)) : UPLOAD_PROGRESS_CAP;
    setState({ phase: 'hashing', progress: 0 });
    // The delta upload's code (and its worker's client) loads with the first delta upload, not the page.
    const [{ deltaUpload }, { hashBlocksInWorker }] = await Promise.all([
      import('./delta-upload'),
      import('./block-hash-client'),
    ]);
    const outcome = await deltaUpload({
      file,
      name: entry.name,
      parentId: entry.parentId,
      conflict: entry.conflict,
      endpoint: delta.endpoint,
      // A request's own signal (a block whose upload failed meanwhile) stops it as the upload's does.
      request: (url, init) =>
        sendRetrying(url, () => init, init.signal ? AbortSignal.any([signal, init.signal]) : signal),
      hashBlocks: delta.hashBlocks ?? hashBlocksInWorker,
      signal,
      onHashed: (bytes) => {
        if (!signal.aborted) setState({ phase: 'hashing', progress: percent(bytes, file.size) });
      },
      onSent: (bytes, total) => {
        if (signal.aborted) return;
        const done = bytes >= total;
        setState({ phase: 'sending', progress: percent(bytes, total), processing: done });
      },
    });
    switch (outcome.kind) {
      case 'filed':
        return { ok: true, file: outcome.file as UploadedFile };
      case 'unavailable':
        setState({ phase: 'sending', progress: 0, processing: false });
        return null;
      case 'changed':
        return { ok: false, notice: { kind: 'generic' } };
      case 'refused':
        return { ok: false, notice: await refusalNotice(outcome.response, entry, file) };
    }
  }

  async function uploadOne(source: UploadSource, entry: QueuedUpload, signal: AbortSignal): Promise<Outcome> {
    const { file } = source;
    if (byDelta(entry)) {
      const outcome = await uploadDelta(file, entry, signal);
      if (outcome) return outcome;
    }
    const sizeOf = (settings: UploadSettings) => Math.max(1, Math.floor(settings.chunkSize));
    let chunkSize = sizeOf(options.settings());
    let resized = false;
    const partName = chunkFileName(entry.name);
    const extension = extensionOf(entry.name);
    const progressAt = (bytes: number) =>
      Math.min(UPLOAD_PROGRESS_CAP, Math.floor((bytes / file.size) * 100));
    let resumes = 0;

    for (let start = 0; ;) {
      const end = Math.min(file.size, start + chunkSize);
      const isLast = end === file.size;
      // Text fields go before the bytes so the server can refuse the chunk before storing any of it.
      const build = () => {
        const form = new FormData();
        form.append('name', entry.name);
        form.append('extension', extension);
        form.append('is_last_chunk', isLast ? '1' : '0');
        if (entry.path) form.append('path', entry.path);
        if (entry.parentId) form.append('parent_id', entry.parentId);
        if (entry.conflict) form.append('conflict', entry.conflict);
        form.append('offset', String(start));
        form.append('chunk', file.slice(start, end), partName);
        return form;
      };
      if (isLast) setState({ progress: UPLOAD_PROGRESS_CAP, processing: true });

      const response = await sendRetrying(endpoint, () => ({ body: build() }), signal);
      if (!response.ok) {
        const answer = await errorAnswer(response);
        // The server's copy ends elsewhere (an upload it swept, a chunk it lost): go on from there.
        const resumeAt =
          response.status === 409 && resumes < CHUNK_UPLOAD_RETRIES ? storedBytes(answer) : null;
        if (resumeAt !== null && resumeAt < file.size) {
          resumes += 1;
          start = resumeAt;
          setState({ progress: progressAt(start), processing: false });
          continue;
        }
        // Larger than the chunk size the server takes now: the rest goes in chunks of that size.
        if (response.status === 413 && !resized && options.refreshSettings) {
          resized = true;
          const size = sizeOf(await options.refreshSettings());
          if (size < end - start) {
            chunkSize = size;
            if (isLast) setState({ processing: false });
            continue;
          }
        }
        const refusal = { message: answer.message ?? '', type: extension || file.type };
        return { ok: false, notice: STATUS_NOTICE[response.status]?.(refusal) ?? { kind: 'generic' } };
      }
      if (isLast) {
        const body = (await response.json()) as { data: UploadedFile };
        return { ok: true, file: body.data };
      }
      setState({ progress: progressAt(end) });
      start = end;
    }
  }

  function finishRun() {
    pending = [];
    controller = null;
    running = false;
    const reloadFolders = folderUploadDone;
    folderUploadDone = false;
    setState(idleState);
    if (reloadFolders) options.onFolderUploaded?.();
  }

  async function run() {
    if (running) return;
    running = true;
    while (pending.length > 0) {
      const next = pending[0];
      if (!next) break;
      controller = new AbortController();
      const signal = controller.signal;
      setState({ current: next.entry, progress: 0, phase: 'sending', processing: false });
      let outcome: Outcome;
      try {
        outcome = await uploadOne(next.source, next.entry, signal);
      } catch {
        outcome = { ok: false, notice: signal.aborted ? null : { kind: 'generic' } };
      }
      // cancel() already reset everything; a newer run may be going.
      if (signal.aborted) return;
      if (!outcome.ok) {
        if (outcome.notice) options.onNotice(outcome.notice);
        break;
      }
      pending = pending.slice(1);
      if (next.entry.path) folderUploadDone = true;
      setState({
        items: pending.map((item) => item.entry),
        uploaded: state.uploaded + 1,
        phase: 'sending',
        processing: false,
      });
      options.onFileUploaded?.(outcome.file, next.entry);
    }
    finishRun();
  }

  function add(
    entries: readonly (File | UploadSource)[],
    parentId: string | null,
    conflicts?: ReadonlyMap<string, UploadConflict>,
  ) {
    if (entries.length === 0) return;
    const settings = options.settings();
    if (!settings.canUpload) {
      options.onNotice({
        kind: settings.subscriptionType === 'none' ? 'exceed-upload-limit' : 'upload-disabled',
      });
      return;
    }
    const accepted: { source: UploadSource; entry: QueuedUpload }[] = [];
    let blacklistNotice: UploadNotice | null = null;
    let limitNotice: UploadNotice | null = null;
    for (const source of entries.map(toSource)) {
      const { file } = source;
      if (IGNORED_NAMES.has(file.name)) continue;
      if (file.size === 0) {
        options.onNotice({ kind: 'zero-byte', name: file.name });
        continue;
      }
      const refusedType = blacklistedType(file, settings.mimetypesBlacklist);
      if (refusedType) {
        blacklistNotice ??= { kind: 'blacklisted', type: refusedType };
        continue;
      }
      if (settings.uploadLimit > 0 && file.size > settings.uploadLimit) {
        limitNotice ??= { kind: 'over-upload-limit', name: file.name, limit: settings.uploadLimit };
        continue;
      }
      const name = hyphenateWhitespace(file.name);
      const path = normalisePath(source.path, name);
      keySeed += 1;
      accepted.push({
        source,
        entry: {
          key: `upload-${keySeed}`,
          name,
          size: file.size,
          parentId,
          path,
          conflict: path ? null : (conflicts?.get(name) ?? null),
        },
      });
    }
    // One alert per kind of refusal: the popup shows one message at a time.
    if (blacklistNotice) options.onNotice(blacklistNotice);
    if (limitNotice) options.onNotice(limitNotice);
    if (accepted.length === 0) return;
    pending = [...pending, ...accepted];
    setState({ items: pending.map((item) => item.entry), total: state.total + accepted.length });
    void run();
  }

  function cancel() {
    controller?.abort();
    finishRun();
  }

  return {
    add,
    cancel,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** React binding: the queue's state, re-rendered on every change. */
export function useUploadQueue(queue: UploadQueue): UploadQueueState {
  return useSyncExternalStore(queue.subscribe, queue.getState, queue.getState);
}
