import type { SharePermission } from '@atelier/contracts';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { ItemType } from '../files/files.tables';

/** A public link to one item of its owner (see migration 0011). */
export interface SharesTable {
  /** 32 random characters of [A-Za-z0-9]; the link's address and its only key. */
  token: string;
  user_id: string;
  item_id: string;
  item_type: ItemType;
  permission: SharePermission;
  /** argon2id; null for a link without a password. */
  password_hash: string | null;
  /** Moves with every change of the password, so sessions opened with an earlier one stop working. */
  password_version: Generated<number>;
  /** The lifetime chosen, in hours; null for a link that never expires. */
  expire_in: number | null;
  expires_at: string | null;
  views: Generated<number>;
  downloads: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A visitor who gave a link's password; the cookie holds a random value, the row its SHA-256. */
export interface ShareSessionsTable {
  id: string;
  token: string;
  /** The link's password version when the session was opened. */
  password_version: number;
  created_at: string;
  expires_at: string;
}

/** A link its owner revoked, kept a while to tell its visitors so (see migration 0033). */
export interface RevokedSharesTable {
  token: string;
  user_id: string;
  revoked_at: string;
}

export type ShareRow = Selectable<SharesTable>;
export type RevokedShareRow = Selectable<RevokedSharesTable>;
export type NewShare = Insertable<SharesTable>;
export type ShareSessionRow = Selectable<ShareSessionsTable>;

declare module '../../db/schema' {
  interface DB {
    shares: SharesTable;
    share_sessions: ShareSessionsTable;
    revoked_shares: RevokedSharesTable;
  }
}
