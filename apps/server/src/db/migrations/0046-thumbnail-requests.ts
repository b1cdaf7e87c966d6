import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * `thumbnail_requests`: a file whose thumbnails are owed. The unit of work that files an image or a
 * video writes its row with the thumbnail job; the job deletes it once the file has its thumbnails
 * or never will (a type without, bytes no decoder reads, the file gone). A row left behind names a
 * job that was lost (its worker killed more often than a job may stall, its retries spent while
 * storage was away, a queue lost with its Redis), and the files module's sweep enqueues it again, so
 * no file stays without its picture for good; a few times only, so a file whose job kills its worker
 * each time is not run again forever. Files already filed without thumbnails are requested here once.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('thumbnail_requests')
    .addColumn('item_id', 'text', (c) => c.primaryKey().references('items.id').onDelete('cascade'))
    /** When its job was last enqueued, by the filing or the sweep. */
    .addColumn('requested_at', timestamp(dialect), (c) => c.notNull())
    /** Times the sweep enqueued the job again; a new filing of the file starts again at 0. */
    .addColumn('sweeps', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('thumbnail_requests_requested_at_index')
    .on('thumbnail_requests')
    .column('requested_at')
    .execute();
  const now = new Date(0).toISOString();
  await sql`
    insert into thumbnail_requests (item_id, requested_at)
    select id, ${now} from items
    where type = 'file' and (mimetype like 'image/%' or mimetype like 'video/%')
      and not exists (select 1 from thumbnails where thumbnails.item_id = items.id)
  `.execute(db);
}
