import { abortError } from '../../abort';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { RenderError } from '../../types';
import { spawnWorker } from '../../workers/spawn-worker';
import type { FrameGeometry } from './frame-geometry';
import {
  CONTROL_ABORT,
  CONTROL_BANDS_DONE,
  CONTROL_NEXT_BAND,
  CONTROL_SLOTS,
  CONTROL_STRIDE,
  type FrameJob,
} from './frame-job';
import type { WorkerMessage } from './raster.worker';

type Reply = { type: 'ready' } | { type: 'done'; rendered: number } | { type: 'failed'; message: string };

/** How long a pool waits idle for the next job before its workers end. */
const IDLE_MS = 30_000;

/** One raster worker per core, kept alive across frames and jobs; all of them cooperate on every frame. */
export class RasterPool {
  private readonly workers: Worker[];
  /** A band counter and a stop flag per frame in flight (CONTROL_SLOTS of them, taken in turn). */
  private readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * CONTROL_STRIDE * 4));
  private nextSlot = 0;
  /** Replies awaited, per worker: each worker answers its messages in order. */
  private pending: Array<Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }>>;
  private broken = false;

  constructor(threads: number) {
    this.pending = Array.from({ length: threads }, () => []);
    this.workers = Array.from({ length: threads }, (_, w) => {
      const worker = spawnWorker('raster');
      worker.on('message', (reply: Reply) => this.pending[w]!.shift()?.resolve(reply));
      worker.on('error', (error) => this.failAll(error));
      worker.on('exit', (code) => {
        if (code !== 0) this.failAll(new Error(`raster worker exited with code ${code}`));
      });
      return worker;
    });
  }

  get size(): number {
    return this.workers.length;
  }

  /** Whether another job can use the pool: every worker alive, none of them busy. */
  get reusable(): boolean {
    return !this.broken && this.pending.every((queue) => queue.length === 0);
  }

  /** Idle workers do not keep the process alive (a CLI ends when its work is done); busy ones do. */
  hold(held: boolean): void {
    for (const worker of this.workers) {
      if (held) worker.ref();
      else worker.unref();
    }
  }

  private failAll(error: Error): void {
    // A worker that crashed or exited takes the pool with it: it is closed, never handed to another job.
    this.broken = true;
    const waiting = this.pending.flat();
    for (const queue of this.pending) queue.length = 0;
    for (const p of waiting)
      p.reject(new RenderError('render_failed', `draft renderer failed: ${error.message}`));
  }

  /**
   * Posts one message to every worker and waits for each reply. Several frames may be in flight:
   * each worker answers its messages in order, so its queue of awaited replies lines up with them.
   */
  private async broadcast(message: WorkerMessage): Promise<Reply[]> {
    const replies = this.workers.map((worker, w) => {
      const reply = new Promise<Reply>((resolve, reject) => {
        if (this.broken)
          reject(new RenderError('render_failed', 'draft renderer failed: the pool is closed'));
        else this.pending[w]!.push({ resolve, reject });
      });
      worker.postMessage(message);
      return reply;
    });
    const all = await Promise.all(replies);
    const failed = all.find((r): r is Extract<Reply, { type: 'failed' }> => r.type === 'failed');
    if (failed) throw new RenderError('render_failed', `draft renderer failed: ${failed.message}`);
    return all;
  }

  setScene(message: Extract<WorkerMessage, { type: 'scene' }>): Promise<Reply[]> {
    return this.broadcast(message);
  }

  /**
   * Renders a prepared frame into `output` (RGBA, width × height × 4, shared). The work is handed
   * out before the first await, so the caller can prepare the next frame meanwhile. A frame may be
   * handed out before the one before it is done (at most CONTROL_SLOTS - 1 in flight): a worker
   * then goes on to it as soon as it finds no band of the earlier one left, without waiting for
   * this thread. Aborting stops every worker at its next band.
   */
  async renderFrame(
    job: FrameJob,
    geometry: FrameGeometry,
    output: SharedArrayBuffer,
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted) throw abortError(signal, 'render');
    const slot = this.nextSlot;
    this.nextSlot = (slot + 1) % CONTROL_SLOTS;
    const base = slot * CONTROL_STRIDE;
    Atomics.store(this.control, base + CONTROL_NEXT_BAND, 0);
    Atomics.store(this.control, base + CONTROL_ABORT, 0);
    Atomics.store(this.control, base + CONTROL_BANDS_DONE, 0);
    const onAbort = (): void => {
      Atomics.store(this.control, base + CONTROL_ABORT, 1);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.broadcast({
        type: 'frame',
        job,
        geometry,
        output,
        control: this.control.buffer as SharedArrayBuffer,
        slot,
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted) throw abortError(signal, 'render');
  }

  /** Lets go of the scene, so an idle pool holds no model. */
  async release(): Promise<void> {
    await this.broadcast({ type: 'release' });
  }

  async close(): Promise<void> {
    this.broken = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * The process's raster pool, shared by the draft engines one job at a time: starting a pool costs a
 * worker start per core (1–3 s from the TypeScript sources), which every render and model preview
 * paid. A job takes the idle pool, or a new one when it is busy (two jobs at once) or broken; given
 * back, it waits IDLE_MS for the next job, unreferenced, then ends.
 */
class SharedRasterPool {
  private idle: { pool: RasterPool; timer: NodeJS.Timeout } | null = null;

  take(threads = availableParallelism()): RasterPool {
    const size = Math.max(1, threads);
    const idle = this.idle;
    this.idle = null;
    if (idle) {
      clearTimeout(idle.timer);
      if (idle.pool.reusable && idle.pool.size === size) {
        idle.pool.hold(true);
        return idle.pool;
      }
      void idle.pool.close();
    }
    return new RasterPool(size);
  }

  /** Back from a job, finished or not: kept for the next one if it is whole and none is kept yet. */
  async giveBack(pool: RasterPool): Promise<void> {
    if (pool.reusable) await pool.release().catch(() => undefined);
    if (!pool.reusable || this.idle) {
      await pool.close();
      return;
    }
    pool.hold(false);
    const timer = setTimeout(() => {
      if (this.idle?.pool !== pool) return;
      this.idle = null;
      void pool.close();
    }, IDLE_MS);
    timer.unref();
    this.idle = { pool, timer };
  }

  /** Ends the idle pool now (shutdown, or a CLI that is done rendering). */
  async close(): Promise<void> {
    const idle = this.idle;
    this.idle = null;
    if (!idle) return;
    clearTimeout(idle.timer);
    await idle.pool.close();
  }
}

export const rasterPools = new SharedRasterPool();

export const closeDraftWorkers = (): Promise<void> => rasterPools.close();
