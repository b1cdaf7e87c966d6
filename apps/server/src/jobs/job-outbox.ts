import type { Selectable } from 'kysely';
import type { Database } from '../db/database';

export interface JobOutboxTable {
  id: string;
  name: string;
  /** JSON of the validated payload. */
  payload: string;
  /** JSON of the queue's options for the job (attempts, backoff). */
  options: string;
  run_at: string;
  claimed_until: string | null;
  created_at: string;
}
export type OutboxRow = Selectable<JobOutboxTable>;

declare module '../db/schema' {
  interface DB {
    job_outbox: JobOutboxTable;
  }
}

/**
 * How long a forwarder holds a row it took; a forwarder that died is replaced after this. A forward
 * is one command to Redis, and one made twice adds the job once, so the hold can be short.
 */
const CLAIM_MS = 5_000;
const BATCH = 100;

/**
 * The jobs a unit of work enqueued for a queue outside the database (BullMQ on Redis): they are
 * stored with the unit's writes, so a job exists exactly when its writes committed, and handed to the
 * queue after the commit. A row is added to the queue under its own id, which the queue keeps for a
 * day after the job ends, so a forward repeated after a crash finds the job and adds nothing.
 */
export class JobOutbox {
  constructor(
    private readonly database: Database,
    /** Real time, not the app's clock: a forwarder's claim lapses for the other workers as they wait. */
    private readonly now: () => number = Date.now,
  ) {}

  async store(row: Omit<OutboxRow, 'claimed_until' | 'created_at'>): Promise<void> {
    await this.database.db
      .insertInto('job_outbox')
      .values({ ...row, claimed_until: null, created_at: new Date(this.now()).toISOString() })
      .execute();
  }

  /**
   * Hands one stored row to `forward` when no other forwarder holds it, and deletes it once
   * forwarded; a failure leaves it for the next pass. False when another forwarder held it.
   */
  async forwardOne(id: string, forward: (row: OutboxRow) => Promise<void>): Promise<boolean> {
    const row = await this.claim(id);
    if (!row) return false;
    try {
      await forward(row);
    } catch (error) {
      // Redis is away: the next pass of any forwarder tries again, without waiting for the hold.
      await this.database.db
        .updateTable('job_outbox')
        .set({ claimed_until: null })
        .where('id', '=', id)
        .execute();
      throw error;
    }
    await this.database.db.deleteFrom('job_outbox').where('id', '=', id).execute();
    return true;
  }

  /** Forwards every row no live forwarder holds (what crashed processes left); answers how many. */
  async forwardAll(forward: (row: OutboxRow) => Promise<void>): Promise<number> {
    const ids = await this.database.db
      .selectFrom('job_outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('claimed_until', 'is', null),
          eb('claimed_until', '<', new Date(this.now()).toISOString()),
        ]),
      )
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    let forwarded = 0;
    for (const { id } of ids) if (await this.forwardOne(id, forward)) forwarded += 1;
    return forwarded;
  }

  async pending(): Promise<number> {
    const row = await this.database.db
      .selectFrom('job_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private async claim(id: string): Promise<OutboxRow | undefined> {
    const now = new Date(this.now()).toISOString();
    return this.database.db
      .updateTable('job_outbox')
      .set({ claimed_until: new Date(this.now() + CLAIM_MS).toISOString() })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
  }
}
