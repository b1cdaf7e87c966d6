import type { Database } from '../../db/database';
import type { ItemReader } from '../files/files.ports';
import type { NewUploadRequest, UploadRequestRow } from './upload-requests.tables';

/** A request as every call reads it: with its folder's name and state, and how many files it received. */
export interface OpenedUploadRequest extends UploadRequestRow {
  folder_name: string;
  /** False once the folder is in the trash (or gone): the request then leads nowhere. */
  folder_live: boolean;
  received: number;
}

/**
 * Upload requests. Owner calls name the owner; token calls read by the request's id alone. The
 * folder and the files received are the files module's, read through its port.
 */
export class UploadRequestsRepository {
  constructor(
    private readonly database: Database,
    private readonly items: Pick<ItemReader, 'findMany' | 'liveFilesReceived'>,
  ) {}

  private get db() {
    return this.database.db;
  }

  async insert(row: NewUploadRequest): Promise<void> {
    await this.db.insertInto('upload_requests').values(row).execute();
  }

  async find(id: string): Promise<OpenedUploadRequest | undefined> {
    const row = await this.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && (await this.opened(row.user_id, [row]))[0];
  }

  /** The owner's requests, newest first. */
  async listOwned(ownerId: string): Promise<OpenedUploadRequest[]> {
    const rows = await this.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('user_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return this.opened(ownerId, rows);
  }

  /**
   * The request's status and end, its row held (PostgreSQL) until the caller's unit of work ends: a
   * close waits for a file being filed, or the file finds the request closed.
   */
  async lockStatus(id: string): Promise<Pick<UploadRequestRow, 'status' | 'expires_at'> | undefined> {
    let query = this.db.selectFrom('upload_requests').select(['status', 'expires_at']).where('id', '=', id);
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** `active` → `filling`, once: true only for the call that made the change (the first file's). */
  async markFilling(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_requests')
      .set({ status: 'filling', updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Closes a request still open at `now`: true only for the call that closed it. */
  async close(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_requests')
      .set({ status: 'filled', filled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '!=', 'filled')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The owner's requests with their folders and counts: two queries however many requests. */
  private async opened(ownerId: string, rows: UploadRequestRow[]): Promise<OpenedUploadRequest[]> {
    if (rows.length === 0) return [];
    const [folders, received] = await Promise.all([
      this.items.findMany(ownerId, [...new Set(rows.map((row) => row.folder_id))]),
      this.items.liveFilesReceived(
        ownerId,
        rows.map((row) => row.id),
      ),
    ]);
    const byId = new Map(folders.map((folder) => [folder.id, folder]));
    return rows.flatMap((row) => {
      const folder = byId.get(row.folder_id);
      if (!folder) return [];
      return [
        {
          ...row,
          folder_name: folder.name,
          folder_live: folder.deleted_at === null,
          received: received.get(row.id) ?? 0,
        },
      ];
    });
  }
}
