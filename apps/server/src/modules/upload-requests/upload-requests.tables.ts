import type { Insertable, Selectable } from 'kysely';

/** The statuses kept in the row; `expired` is read off `expires_at` when the request is used. */
export type StoredUploadRequestStatus = 'active' | 'filling' | 'filled';

/** A link through which someone without an account sends files into a folder (see migration 0013). */
export interface UploadRequestsTable {
  /** A random UUID: the link's token. */
  id: string;
  user_id: string;
  folder_id: string;
  name: string;
  notes: string | null;
  /** Whom the link was mailed to, if anyone. */
  email: string | null;
  status: StoredUploadRequestStatus;
  expires_at: string;
  filled_at: string | null;
  created_at: string;
  updated_at: string;
}

export type UploadRequestRow = Selectable<UploadRequestsTable>;
export type NewUploadRequest = Insertable<UploadRequestsTable>;

declare module '../../db/schema' {
  interface DB {
    upload_requests: UploadRequestsTable;
  }
}
