import type { AuditAction } from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { AuditLogRow } from './admin.tables';

/** What an entry says changed; callers pass only names and values a reader may see, never a secret. */
export type AuditDetails = Record<string, unknown>;

/** The administration's audit log: who changed what of whom, and when. Kysely only. */
export class AuditLogRepository {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  async record(
    actor: Pick<UserRow, 'id' | 'name'>,
    action: AuditAction,
    target: Pick<UserRow, 'id' | 'name'>,
    details: AuditDetails = {},
  ): Promise<void> {
    await this.database.db
      .insertInto('audit_log')
      .values({
        id: randomUUID(),
        actor_id: actor.id,
        actor_name: actor.name,
        action,
        target_id: target.id,
        target_name: target.name,
        details: JSON.stringify(details),
        created_at: this.now().toISOString(),
      })
      .execute();
  }

  async page(page: number, perPage: number): Promise<{ rows: AuditLogRow[]; total: number }> {
    const db = this.database.db;
    const [rows, count] = await Promise.all([
      db
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }
}
