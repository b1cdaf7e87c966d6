import type { RenderQueueEntry } from '@atelier/contracts';
import type { ProjectsRepository } from './projects.repository';

/** Finished renders the estimates are made of: the newest ones, at most this many per category. */
const DURATION_SAMPLE = 20;
const FINISHED_READ = 200;

/**
 * Where the owner's unfinished renders stand in the instance's queue, and about how long until each
 * project's batch is done. Renders are taken one after another in queue order, so a render ends
 * after what the running renders have left and every render queued before it; each render is
 * counted at the average time recent renders of its category took (of any category before one of
 * its own finished).
 */
export class RenderQueueReader {
  constructor(private readonly deps: { projects: ProjectsRepository; now: () => Date }) {}

  async forOwner(ownerId: string): Promise<RenderQueueEntry[]> {
    const unfinished = await this.deps.projects.unfinishedRenders();
    const own = unfinished.filter((r) => r.user_id === ownerId);
    if (own.length === 0) return [];
    const projectIds = [...new Set(own.map((r) => r.project_id))];
    const [made, names, finished] = await Promise.all([
      this.deps.projects.rendersMadeSince(ownerId, projectIds, own[0]!.created_at),
      this.deps.projects.projectNames(ownerId, projectIds),
      this.deps.projects.latestFinishedRenders(FINISHED_READ),
    ]);
    const duration = averageDurations(finished);
    const now = this.deps.now().getTime();

    const endsIn = new Map<string, number | null>();
    let elapsed: number | null = 0;
    for (const render of unfinished) {
      const seconds = duration(render.category_id);
      if (elapsed === null || seconds === null) elapsed = null;
      else if (render.status === 'rendering') {
        const running = render.started_at ? (now - Date.parse(render.started_at)) / 1000 : 0;
        elapsed += Math.max(0, seconds - running);
      } else elapsed += seconds;
      endsIn.set(render.id, elapsed);
    }
    const queued = unfinished.filter((r) => r.status === 'queued');

    return projectIds.map((projectId) => {
      const mine = own.filter((r) => r.project_id === projectId);
      const batch = made.filter((r) => r.project_id === projectId && r.created_at >= mine[0]!.created_at);
      const firstQueued = queued.findIndex((r) => r.project_id === projectId && r.user_id === ownerId);
      const last = endsIn.get(mine.at(-1)!.id) ?? null;
      return {
        project_id: projectId,
        project_name: names.get(projectId) ?? '',
        total: batch.length,
        ended: batch.filter((r) => r.status === 'done' || r.status === 'failed').length,
        rendering: mine.filter((r) => r.status === 'rendering').length,
        queued: mine.filter((r) => r.status === 'queued').length,
        position: firstQueued === -1 ? null : firstQueued + 1,
        estimate_seconds: last === null ? null : Math.round(last),
      };
    });
  }
}

/** Seconds a render of a category takes, on average over its newest finished ones; null before any. */
function averageDurations(
  finished: Array<{ category_id: string; started_at: string | null; updated_at: string }>,
): (categoryId: string) => number | null {
  const byCategory = new Map<string, number[]>();
  const all: number[] = [];
  for (const render of finished) {
    const seconds = (Date.parse(render.updated_at) - Date.parse(render.started_at!)) / 1000;
    const samples = byCategory.get(render.category_id) ?? [];
    if (samples.length < DURATION_SAMPLE) samples.push(seconds);
    byCategory.set(render.category_id, samples);
    if (all.length < DURATION_SAMPLE) all.push(seconds);
  }
  const mean = (values: number[]) =>
    values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
  return (categoryId) => mean(byCategory.get(categoryId) ?? []) ?? mean(all);
}
