import type { Insertable, Selectable } from 'kysely';

/** A user's app password for WebDAV and scripts (see migration 0018); the password itself is never stored. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  /** The password's first group, kept plainly to find its row at sign-in. */
  lookup: string;
  /** argon2id of the whole password. */
  password_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export type AppPasswordRow = Selectable<AppPasswordsTable>;
export type NewAppPassword = Insertable<AppPasswordsTable>;

declare module '../../db/schema' {
  interface DB {
    app_passwords: AppPasswordsTable;
  }
}
