import type { UploadConflict } from '@atelier/contracts';
import { BLOCKS_MAX_HASHES } from '@atelier/contracts/constants';
import type { FileBlock, HashBlocks } from './block-hashes';

/**
 * The delta upload (docs/api.md, "Delta upload"): the file is cut into the block store's blocks and
 * hashed, the server says which of them it lacks, only those are sent, and a commit files the list.
 * A save of a large file that changed in a few places sends a few blocks instead of the whole file.
 * Framework-free; the upload queue decides when to use it and turns refusals into notices.
 */

/** Blocks sent at once. */
export const BLOCK_UPLOADS_AT_ONCE = 3;
/** Commits answered 409 (blocks the server no longer holds) sent again after sending those blocks. */
const COMMIT_ROUNDS = 3;

export interface DeltaUploadInput {
  file: Blob;
  name: string;
  parentId: string | null;
  conflict: UploadConflict | null;
  /** The routes' prefix: `${endpoint}/missing`, `${endpoint}/{sha256}`, `${endpoint}/commit`. */
  endpoint: string;
  /** Sends one request (with the session's headers, the upload's signal and the queue's retries). */
  request: (url: string, init: RequestInit) => Promise<Response>;
  hashBlocks: HashBlocks;
  signal: AbortSignal;
  /** Bytes of the file cut and hashed so far. */
  onHashed: (bytes: number) => void;
  /** Bytes sent of those the server lacked (`total`, 0 when it lacks none). */
  onSent: (bytes: number, total: number) => void;
}

export type DeltaOutcome =
  | { kind: 'filed'; file: unknown }
  /** The server offers no delta upload here (an older server, a place without it): use the chunk form. */
  | { kind: 'unavailable' }
  /** The server refused; its answer says why. */
  | { kind: 'refused'; response: Response }
  /** A block's bytes did not hash as they did when read (the file changed on disk meanwhile). */
  | { kind: 'changed' };

const jsonInit = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The strings of `value[key]` when it is an array of strings, else null. */
function stringList(value: unknown, key: string): string[] | null {
  const list = (value as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) && list.every((item) => typeof item === 'string') ? list : null;
}

export async function deltaUpload(input: DeltaUploadInput): Promise<DeltaOutcome> {
  const { file, endpoint, request, signal } = input;
  const blocks = await input.hashBlocks(file, input.onHashed, signal);
  // A commit names at most this many blocks (about 20 GB at the average block): a larger file goes by
  // the chunk form, which has no such bound.
  if (blocks.length > BLOCKS_MAX_HASHES) return { kind: 'unavailable' };
  const hashes = blocks.map((block) => block.hash);
  const byHash = new Map<string, FileBlock>();
  for (const block of blocks) if (!byHash.has(block.hash)) byHash.set(block.hash, block);
  const unique = [...byHash.keys()];
  const parent = input.parentId ? { parent_id: input.parentId } : {};

  // Which blocks the server lacks: one question, as a commit names no more blocks than it may.
  const response = await request(`${endpoint}/missing`, jsonInit({ hashes: unique, ...parent }));
  if (response.status === 404 || response.status === 405) return { kind: 'unavailable' };
  if (!response.ok) return { kind: 'refused', response };
  const answer: unknown = await response.json().catch(() => null);
  const listed = stringList((answer as { data?: unknown } | null)?.data ?? null, 'missing');
  if (!listed) return { kind: 'unavailable' };
  const missing = listed.filter((hash) => byHash.has(hash));

  const total = missing.reduce((sum, hash) => sum + byHash.get(hash)!.size, 0);
  let sent = 0;
  input.onSent(0, total);
  const query = input.parentId ? `?parent_id=${encodeURIComponent(input.parentId)}` : '';

  /** Sends the blocks `toSend`, a few at a time; answers the first failure, or null when all arrived. */
  async function sendBlocks(toSend: readonly string[]): Promise<DeltaOutcome | null> {
    const queue = [...new Set(toSend)];
    let failure: DeltaOutcome | null = null;
    let broken = false;
    /** Stops the other senders' requests, those under way and those about to go. */
    const stop = new AbortController();
    const sender = async () => {
      try {
        for (let hash = queue.shift(); hash !== undefined && !failure && !broken; hash = queue.shift()) {
          const block = byHash.get(hash)!;
          const response = await request(`${endpoint}/${hash}${query}`, {
            method: 'PUT',
            headers: { 'Content-Type': 'application/octet-stream' },
            body: file.slice(block.offset, block.offset + block.size),
            signal: stop.signal,
          });
          if (!response.ok) {
            failure ??= response.status === 422 ? { kind: 'changed' } : { kind: 'refused', response };
            return;
          }
          sent += block.size;
          input.onSent(Math.min(sent, total), total);
        }
      } catch (error) {
        // A block that cannot be sent ends the upload: the other senders stop too, rather than go on
        // sending blocks (each holding quota) for an upload already reported failed.
        broken = true;
        stop.abort();
        throw error;
      }
    };
    await Promise.all(Array.from({ length: Math.min(BLOCK_UPLOADS_AT_ONCE, queue.length) }, sender));
    signal.throwIfAborted();
    return failure;
  }

  const failed = await sendBlocks(missing);
  if (failed) return failed;

  const commit = {
    name: input.name,
    ...parent,
    ...(input.conflict && { conflict: input.conflict }),
    size: file.size,
    blocks: hashes,
  };
  for (let round = 0; ; round++) {
    const response = await request(`${endpoint}/commit`, jsonInit(commit));
    if (response.ok) {
      const answer = (await response.json()) as { data: unknown };
      return { kind: 'filed', file: answer.data };
    }
    // Blocks the server no longer holds (collected meanwhile): send them, then commit again.
    const lacking =
      response.status === 409
        ? stringList(
            await response
              .clone()
              .json()
              .catch(() => null),
            'missing',
          )
        : null;
    const known = lacking?.filter((hash) => byHash.has(hash)) ?? [];
    if (known.length === 0 || round >= COMMIT_ROUNDS) return { kind: 'refused', response };
    const again = await sendBlocks(known);
    if (again) return again;
  }
}
