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

/** A storage object whose rows are gone, waiting for the purge job (migration 0019). */
export interface StoragePurgesTable {
  purge_id: string;
  kind: 'object' | 'parts';
  key: string;
  /** Parts an unfinished upload had stored; 0 for an object. */
  part_count: number;
  created_at: string;
}

export type AuditLogRow = Selectable<AuditLogTable>;
export type StoragePurgeRow = Selectable<StoragePurgesTable>;

declare module '../../db/schema' {
  interface DB {
    audit_log: AuditLogTable;
    storage_purges: StoragePurgesTable;
  }
}
