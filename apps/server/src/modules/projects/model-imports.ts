import type * as Render from '@atelier/render';
import type { ImportOptions, Model } from '@atelier/render';
import { availableParallelism } from 'node:os';
import { AppError } from '../../lib/app-error';
import type { ContentReader } from '../files/block-store';
import type { RenderCatalogue } from './render-catalogue';

/**
 * Imports one process runs at once. Each holds a file's bytes and its parsed model and keeps a core
 * busy, so half the cores (at most four) stay free for requests and renders.
 */
export const PROCESS_IMPORTS = Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));

/**
 * Imports one user may have running or waiting for the viewer in a process. More are refused (429)
 * rather than queued, so one user cannot fill the queue in front of everyone else.
 */
export const USER_IMPORTS = 2;

/** What an import needs of a stored file's row. */
export interface StoredModel {
  name: string;
  size: number;
  storage_key: string;
}

export interface ModelImportsDeps {
  /** Files' bytes, whatever their layout (one object or blocks). */
  contents: ContentReader;
  catalogue: RenderCatalogue;
}

/**
 * Reads stored model files and imports them, bounded: the size on record is checked before any
 * byte is read, no more than the size is read, and at most `processLimit` imports hold bytes at once
 * (later ones wait their turn, first come first served).
 */
export class ModelImports {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly admittedPerUser = new Map<string, number>();

  constructor(
    private readonly deps: ModelImportsDeps,
    readonly processLimit = PROCESS_IMPORTS,
    readonly userLimit = USER_IMPORTS,
  ) {}

  /** Imports holding a turn, and waiting for one. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** An import a user's request waits for; refused with 429 while the user has `userLimit` under way. */
  async importFor(userId: string, file: StoredModel, options: ImportOptions): Promise<Model> {
    const render = await this.sizeChecked(file);
    const admitted = this.admittedPerUser.get(userId) ?? 0;
    if (admitted >= this.userLimit) throw new AppError('throttled', 'errors.model_imports_busy');
    this.admittedPerUser.set(userId, admitted + 1);
    try {
      return await this.run(render, file, options);
    } finally {
      const left = this.admittedPerUser.get(userId)! - 1;
      if (left > 0) this.admittedPerUser.set(userId, left);
      else this.admittedPerUser.delete(userId);
    }
  }

  /** An import of a background job, which runs one at a time per queue and so waits its turn. */
  async import(file: StoredModel, options: ImportOptions): Promise<Model> {
    return this.run(await this.sizeChecked(file), file, options);
  }

  /** The render module, once the file's size on record is within the engine's limit (else its too_large error). */
  private async sizeChecked(file: StoredModel): Promise<typeof Render> {
    const render = await this.deps.catalogue.load();
    render.assertModelSize(file.size);
    return render;
  }

  private async run(render: typeof Render, file: StoredModel, options: ImportOptions): Promise<Model> {
    await this.takeTurn(render, options.signal);
    try {
      const data = await readStored(this.deps.contents, file);
      return await render.importModel({ fileName: file.name, data, handOver: true }, options);
    } finally {
      this.passTurn();
    }
  }

  /** Waits for a turn; an import stopped while it waits (its client gone, its job cancelled) leaves the line. */
  private takeTurn(render: typeof Render, signal: AbortSignal | undefined): Promise<void> {
    const cancelled = () =>
      new render.RenderError('cancelled', 'the import was cancelled while it waited for its turn');
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.running < this.processLimit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(cancelled());
      };
      const take = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(take);
    });
  }

  /** The turn goes straight to the next in line, so `running` never drops while someone waits. */
  private passTurn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** The file's bytes in a buffer of its own (so they can move to the import worker), never more than its size on record. */
async function readStored(contents: ContentReader, file: StoredModel): Promise<Uint8Array> {
  const data = new Uint8Array(file.size);
  if (file.size === 0) return data;
  let offset = 0;
  for await (const chunk of await contents.read(file.storage_key, { start: 0, end: file.size - 1 })) {
    data.set(chunk as Buffer, offset);
    offset += (chunk as Buffer).length;
  }
  if (offset !== file.size)
    throw new Error(`stored object ${file.storage_key} has ${offset} of its ${file.size} bytes`);
  return data;
}
