import type { Selectable } from 'kysely';

export interface JobsTable {
  id: string;
  /** The definition id. */
  name: string;
  /** JSON of the validated payload. */
  payload: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  /** Times a worker claimed it. */
  attempts: number;
  /** Times its worker vanished (lease expired) and another worker took it up. */
  stalls: number;
  /** Not claimed before this time (backoff and delays). */
  run_at: string;
  /** The worker holding it while running; afterwards, the one that ran it last. */
  locked_by: string | null;
  /** Running jobs whose lease passed this time are taken up by another worker. */
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
export type JobRow = Selectable<JobsTable>;

declare module '../db/schema' {
  interface DB {
    jobs: JobsTable;
  }
}
