import type { UnitOfWork } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { PeriodicTask } from '../../jobs/scheduler';
import type { ProjectsRepository } from './projects.repository';
import type { RenderRow } from './projects.tables';
import { renderJob } from './render.job';
import type { RenderRunner } from './render.runner';

/** A render nothing moved for this long is looked at; younger ones may still be on their way to a worker. */
export const STUCK_RENDER_MS = 15 * 60_000;
const SWEEP_EVERY_MS = 5 * 60_000;
const BATCH = 100;

/** What the owner reads on a render the sweep gave up on. */
export const INTERRUPTED_RENDER = 'projects.render_error.interrupted';

export interface RenderSweepDeps {
  projects: ProjectsRepository;
  jobs: JobQueue;
  projectRenders: RenderRunner;
  units: UnitOfWork;
}

/**
 * Finds renders left queued or rendering whose job is gone or over: a render whose job was never
 * stored (or vanished before it started) is enqueued again; one whose job failed or ended without
 * finishing it (a worker lost it too often, its project went away) is marked failed with a reason
 * the studio shows, so no render waits forever. A render whose job waits or runs is left alone,
 * however long the queue.
 */
export class RenderSweep {
  constructor(private readonly deps: RenderSweepDeps) {}

  /** Answers how many renders it enqueued again and how many it failed. */
  async sweep(at: Date): Promise<{ requeued: number; failed: number }> {
    const idle = await this.deps.projects.unfinishedRendersIdleSince(
      new Date(at.getTime() - STUCK_RENDER_MS).toISOString(),
      BATCH,
    );
    const swept = { requeued: 0, failed: 0 };
    for (const render of idle) {
      const job = render.job_id ? await this.deps.jobs.get(renderJob, render.job_id) : null;
      if (job?.status === 'queued' || job?.status === 'running') continue;
      if (!job && render.status === 'queued' && Number(render.attempts) === 0) {
        if (await this.requeue(render, at)) swept.requeued += 1;
      } else if (await this.fail(render, at)) swept.failed += 1;
    }
    return swept;
  }

  /**
   * The render's row is taken first, so a runner that started it meanwhile keeps it; the new job and
   * the row naming it commit together, or a job the row does not name would be enqueued again later.
   */
  private requeue(render: RenderRow, at: Date): Promise<boolean> {
    return this.deps.units.transaction(async () => {
      if (!(await this.deps.projects.updateRenderAsRead(render, { job_id: null }, at.toISOString())))
        return false;
      const jobId = await this.deps.jobs.enqueue(renderJob, { renderId: render.id });
      await this.deps.projects.setRenderJob(render.id, jobId);
      return true;
    });
  }

  private async fail(render: RenderRow, at: Date): Promise<boolean> {
    const changes = { status: 'failed', error: INTERRUPTED_RENDER } as const;
    const failed = await this.deps.units.transaction(async () => {
      if (!(await this.deps.projects.updateRenderAsRead(render, changes, at.toISOString()))) return false;
      await this.deps.projectRenders.tellOwner(render, INTERRUPTED_RENDER);
      return true;
    });
    if (!failed) return false;
    await this.deps.projectRenders.emit(render, 'failed', Number(render.progress), {
      error: INTERRUPTED_RENDER,
    });
    return true;
  }
}

/** The studio's periodic work: the stuck-render sweep. */
export function projectsTasks(services: { renderSweep: RenderSweep }): PeriodicTask[] {
  return [
    { name: 'projects.render-sweep', everyMs: SWEEP_EVERY_MS, run: (at) => services.renderSweep.sweep(at) },
  ];
}
