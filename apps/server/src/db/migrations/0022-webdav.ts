import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * WebDAV's state that must hold across API processes: the dead properties clients set on items
 * (kept per item, so they follow a move and go with the item), and write locks. A lock names a path
 * of its owner's tree rather than an item, since a client may lock a name nothing holds yet.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('dav_properties')
    .addColumn('item_id', 'text', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** The property's content as XML text, namespace declarations included. */
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_properties_pkey', ['item_id', 'namespace', 'name'])
    .execute();

  await db.schema
    .createTable('dav_locks')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** `/A/b.txt`: the locked path in the owner's tree, whoever reaches it. */
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    /** The user who took the lock: only they may use its token. */
    .addColumn('principal_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The client's `<owner>` element, given back in lock discovery. */
    .addColumn('owner_xml', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  // Every write over WebDAV reads the owner's live locks.
  await db.schema.createIndex('dav_locks_owner_id_index').on('dav_locks').column('owner_id').execute();
}
