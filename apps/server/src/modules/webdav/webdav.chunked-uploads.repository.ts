import type { Selectable } from 'kysely';
import type { Database } from '../../db/database';

/** A transfer folder of a sync client's chunked upload (see migration 0041). */
export interface DavUploadsTable {
  id: string;
  user_id: string;
  name: string;
  destination: string | null;
  total_length: number | null;
  created_at: string;
  touched_at: string;
}

/** A chunk a transfer received: its bytes are the storage object `storage_key`. */
export interface DavUploadChunksTable {
  upload_id: string;
  name: string;
  size: number;
  storage_key: string;
  created_at: string;
}

export type DavUploadRow = Selectable<DavUploadsTable>;
export type DavUploadChunkRow = Selectable<DavUploadChunksTable>;

declare module '../../db/schema' {
  interface DB {
    dav_uploads: DavUploadsTable;
    dav_upload_chunks: DavUploadChunksTable;
  }
}

/** The chunked uploads' transfers and chunks. Every query of a transfer names the user it belongs to. */
export class ChunkedUploadsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Whether any chunk of any open transfer is stored. */
  async holdsAnyChunk(): Promise<boolean> {
    return (
      (await this.db.selectFrom('dav_upload_chunks').select('upload_id').limit(1).executeTakeFirst()) !==
      undefined
    );
  }

  find(userId: string, name: string): Promise<DavUploadRow | undefined> {
    return this.db
      .selectFrom('dav_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The storage keys of the chunks of every transfer the user has open. */
  async chunkKeysOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('dav_upload_chunks as c')
      .innerJoin('dav_uploads as u', 'u.id', 'c.upload_id')
      .select('c.storage_key')
      .where('u.user_id', '=', userId)
      .execute();
    return rows.map((row) => row.storage_key);
  }

  list(userId: string): Promise<DavUploadRow[]> {
    return this.db
      .selectFrom('dav_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('name')
      .execute();
  }

  countOf(userId: string): Promise<number> {
    return this.db
      .selectFrom('dav_uploads')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  }

  /** A new transfer; false when the user already has one of that name. */
  async insert(row: DavUploadRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('dav_uploads')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async touch(uploadId: string, at: string, totalLength: number | null): Promise<void> {
    await this.db
      .updateTable('dav_uploads')
      .set({ touched_at: at, ...(totalLength === null ? {} : { total_length: totalLength }) })
      .where('id', '=', uploadId)
      .execute();
  }

  async delete(uploadId: string): Promise<void> {
    await this.db.deleteFrom('dav_uploads').where('id', '=', uploadId).execute();
  }

  chunks(uploadId: string): Promise<DavUploadChunkRow[]> {
    return this.db
      .selectFrom('dav_upload_chunks')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, size: Number(row.size) })));
  }

  /** Records a chunk, replacing one of its name; the replaced row, if any, is answered. */
  async putChunk(chunk: DavUploadChunkRow): Promise<DavUploadChunkRow | undefined> {
    return this.database.transaction(async (trx) => {
      const replaced = await trx
        .deleteFrom('dav_upload_chunks')
        .where('upload_id', '=', chunk.upload_id)
        .where('name', '=', chunk.name)
        .returningAll()
        .executeTakeFirst();
      await trx.insertInto('dav_upload_chunks').values(chunk).execute();
      return replaced && { ...replaced, size: Number(replaced.size) };
    });
  }

  async deleteChunk(uploadId: string, name: string): Promise<DavUploadChunkRow | undefined> {
    const row = await this.db
      .deleteFrom('dav_upload_chunks')
      .where('upload_id', '=', uploadId)
      .where('name', '=', name)
      .returningAll()
      .executeTakeFirst();
    return row && { ...row, size: Number(row.size) };
  }

  /** Transfers nobody touched since `before`, oldest first, a batch at a time. */
  idleSince(before: string, limit: number): Promise<DavUploadRow[]> {
    return this.db
      .selectFrom('dav_uploads')
      .selectAll()
      .where('touched_at', '<', before)
      .orderBy('touched_at')
      .limit(limit)
      .execute();
  }
}
