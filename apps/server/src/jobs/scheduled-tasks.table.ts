import type { Selectable } from 'kysely';

export interface ScheduledTasksTable {
  /** The task's stable name; never rename one, or its schedule starts over. */
  name: string;
  /** The task is due from this time on. */
  next_run_at: string;
  /** The worker running it now (`host:pid:instance`), null between runs. */
  claimed_by: string | null;
  /**
   * Renewed while the task runs: a claim past this time belongs to a worker that died or stalled, and
   * another worker may take the task.
   */
  claimed_until: string | null;
}
export type ScheduledTaskRow = Selectable<ScheduledTasksTable>;

declare module '../db/schema' {
  interface DB {
    scheduled_tasks: ScheduledTasksTable;
  }
}
