import type { Database } from '../../db/database';
import type { NewUploadRequest, UploadRequestRow } from './upload-requests.tables';

/** A request as every call reads it: with its folder's name and state, and how many files it received. */
export interface OpenedUploadRequest extends UploadRequestRow {
  folder_name: string;
  /** False once the folder is in the trash (or gone): the request then leads nowhere. */
  folder_live: boolean;
  received: number;
}

/** Upload requests. Owner calls name the owner; token calls read by the request's id alone. */
export class UploadRequestsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async insert(row: NewUploadRequest): Promise<void> {
    await this.db.insertInto('upload_requests').values(row).execute();
  }

  async find(id: string): Promise<OpenedUploadRequest | undefined> {
    return this.opened().where('upload_requests.id', '=', id).executeTakeFirst();
  }

  /** The owner's requests, newest first. */
  listOwned(ownerId: string): Promise<OpenedUploadRequest[]> {
    return this.opened()
      .where('upload_requests.user_id', '=', ownerId)
      .orderBy('upload_requests.created_at', 'desc')
      .orderBy('upload_requests.id', 'desc')
      .execute();
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

  private opened() {
    return this.db
      .selectFrom('upload_requests')
      .innerJoin('items as folder', 'folder.id', 'upload_requests.folder_id')
      .selectAll('upload_requests')
      .select((eb) => [
        'folder.name as folder_name',
        eb('folder.deleted_at', 'is', null).as('folder_live'),
        eb
          .selectFrom('items')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('items.upload_request_id', '=', 'upload_requests.id')
          .where('items.type', '=', 'file')
          .where('items.deleted_at', 'is', null)
          .as('received'),
      ])
      .$castTo<OpenedUploadRequest>();
  }
}
