import { abortError } from '../../abort';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { RenderError } from '../../types';
import { spawnWorker } from '../../workers/spawn-worker';
import type { FrameGeometry } from './frame-geometry';
import { CONTROL_ABORT, CONTROL_NEXT_BAND, type FrameJob } from './frame-job';
import type { WorkerMessage } from './raster.worker';

type Reply = { type: 'ready' } | { type: 'done'; rendered: number } | { type: 'failed'; message: string };

/** How long a pool waits idle for the next job before its workers end. */
const IDLE_MS = 30_000;

/** One raster worker per core, kept alive across frames and jobs; all of them cooperate on every frame. */
export class RasterPool {
  private readonly workers: Worker[];
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private pending: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];
  private broken = false;

  constructor(threads: number) {
    this.workers = Array.from({ length: threads }, () => {
      const worker = spawnWorker('raster');
      worker.on('message', (reply: Reply) => this.pending.shift()?.resolve(reply));
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
    return !this.broken && this.pending.length === 0;
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
    const waiting = this.pending;
    this.pending = [];
    for (const p of waiting)
      p.reject(new RenderError('render_failed', `draft renderer failed: ${error.message}`));
  }

  /** Posts one message to every worker and waits for each reply (replies arrive in order per worker). */
  private async broadcast(message: WorkerMessage): Promise<Reply[]> {
    const replies = this.workers.map((worker) => {
      const reply = new Promise<Reply>((resolve, reject) => {
        // Each worker answers once per message; queue entries line up with workers by order of posting.
        this.pending.push({ resolve, reject });
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
   * out before the first await, so the caller can prepare the next frame meanwhile. Aborting stops
   * every worker at its next band.
   */
  async renderFrame(
    job: FrameJob,
    geometry: FrameGeometry,
    output: SharedArrayBuffer,
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted) throw abortError(signal, 'render');
    Atomics.store(this.control, CONTROL_NEXT_BAND, 0);
    Atomics.store(this.control, CONTROL_ABORT, 0);
    const onAbort = (): void => {
      Atomics.store(this.control, CONTROL_ABORT, 1);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.broadcast({
        type: 'frame',
        job,
        geometry,
        output,
        control: this.control.buffer as SharedArrayBuffer,
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
