import type { Selectable } from 'kysely';

/** One change an administrator made (migration 0019); names are copied so the row outlives both people. */
export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_id: string | null;
  target_name: string | null;
  /** JSON text; never a secret. */
  details: string;
  created_at: string;
}

export type AuditLogRow = Selectable<AuditLogTable>;

declare module '../../db/schema' {
  interface DB {
    audit_log: AuditLogTable;
  }
}
