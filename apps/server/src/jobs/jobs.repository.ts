import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { JobRow } from './jobs.table';

/** SQL of the database queue driver. Every write to a running job is guarded by the worker's lock. */
export class JobsRepository {
  constructor(private readonly database: Database) {}

  async counts(names: readonly string[]): Promise<{ waiting: number; failed: number }> {
    if (names.length === 0) return { waiting: 0, failed: 0 };
    const rows = await this.database.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('name', 'in', [...names])
      .where('status', 'in', ['queued', 'failed'])
      .groupBy('status')
      .execute();
    const of = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0);
    return { waiting: of('queued'), failed: of('failed') };
  }

  async insert(job: {
    id: string;
    name: string;
    payload: string;
    runAt: string;
    now: string;
  }): Promise<void> {
    await this.database.db
      .insertInto('jobs')
      .values({
        id: job.id,
        name: job.name,
        payload: job.payload,
        status: 'queued',
        attempts: 0,
        stalls: 0,
        run_at: job.runAt,
        created_at: job.now,
        updated_at: job.now,
      })
      .execute();
  }

  async findById(id: string): Promise<JobRow | undefined> {
    return this.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Takes the next due job of one of `names`, or one whose worker's lease ran out, in one atomic
   * statement: on PostgreSQL the candidate row is locked with SKIP LOCKED so concurrent workers each
   * get a different job; SQLite runs the whole UPDATE…RETURNING under its single writer lock.
   */
  async claim(
    names: readonly string[],
    workerId: string,
    now: string,
    leaseUntil: string,
  ): Promise<JobRow | undefined> {
    const { db, dialect } = this.database;
    let candidate = db
      .selectFrom('jobs')
      .select('id')
      .where('name', 'in', names)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(1);
    if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
    // An idle SQLite worker polls with a plain read (WAL readers never wait), so it takes the single
    // write lock only when there is a job to claim.
    else if (!(await candidate.executeTakeFirst())) return undefined;
    return db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        locked_by: workerId,
        lease_expires_at: leaseUntil,
        updated_at: now,
        attempts: eb('attempts', '+', 1),
        // SET reads the row as it was: a job still marked running had lost its worker.
        stalls: sql<number>`case when status = 'running' then stalls + 1 else stalls end`,
      }))
      .where('id', '=', candidate)
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends the leases this worker still holds; returns the ids it holds (others were taken from it). */
  async renewLeases(ids: readonly string[], workerId: string, leaseUntil: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.database.db
      .updateTable('jobs')
      .set({ lease_expires_at: leaseUntil })
      .where('id', 'in', ids)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .returning('id')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async complete(id: string, workerId: string, now: string): Promise<void> {
    await this.finishHeld(id, workerId, { status: 'completed', finished_at: now, updated_at: now });
  }

  async fail(id: string, workerId: string, error: string, now: string): Promise<void> {
    await this.finishHeld(id, workerId, {
      status: 'failed',
      last_error: error,
      finished_at: now,
      updated_at: now,
    });
  }

  async retryLater(id: string, workerId: string, error: string, runAt: string, now: string): Promise<void> {
    await this.finishHeld(id, workerId, {
      status: 'queued',
      last_error: error,
      run_at: runAt,
      updated_at: now,
    });
  }

  /** Hands a job back untouched on shutdown: due at once, and the interrupted start does not count. */
  async release(id: string, workerId: string, now: string): Promise<void> {
    await this.database.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'queued',
        run_at: now,
        updated_at: now,
        locked_by: null,
        lease_expires_at: null,
        attempts: eb('attempts', '-', 1),
      }))
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .execute();
  }

  /** Deletes finished jobs older than the given times. */
  async prune(completedBefore: string, failedBefore: string): Promise<void> {
    await this.database.db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'completed'), eb('finished_at', '<', completedBefore)]),
          eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', failedBefore)]),
        ]),
      )
      .execute();
  }

  private async finishHeld(
    id: string,
    workerId: string,
    changes: {
      status: JobRow['status'];
      updated_at: string;
      finished_at?: string;
      last_error?: string;
      run_at?: string;
    },
  ): Promise<void> {
    await this.database.db
      .updateTable('jobs')
      // locked_by stays, naming the worker that ran it last; only a running job counts as held.
      .set({ ...changes, lease_expires_at: null })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .execute();
  }
}
