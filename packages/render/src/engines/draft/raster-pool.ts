import { abortError } from '../../abort';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { RenderError } from '../../types';
import { spawnWorker } from '../../workers/spawn-worker';
import type { FrameGeometry } from './frame-geometry';
import { CONTROL_ABORT, CONTROL_NEXT_BAND, type FrameJob } from './frame-job';
import type { WorkerMessage } from './raster.worker';

type Reply = { type: 'ready' } | { type: 'done'; rendered: number } | { type: 'failed'; message: string };

/** One raster worker per core, kept alive across frames and jobs; all of them cooperate on every frame. */
export class RasterPool {
  private readonly workers: Worker[];
  private readonly control = new Int32Array(new SharedArrayBuffer(8));
  private pending: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];

  constructor(threads = availableParallelism()) {
    this.workers = Array.from({ length: Math.max(1, threads) }, () => {
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

  private failAll(error: Error): void {
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

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
