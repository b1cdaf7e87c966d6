import type { Kysely } from 'kysely';

/**
 * Blocks stored compressed (issue 24). `encoding` says how a block's object holds its bytes:
 * 'identity' (as they are: every block stored before this) or 'br' (brotli, kept only where it saves
 * space). `size` stays the block's logical size (offsets, quotas and reads count it); `stored_size` is
 * what its object takes, null on blocks stored before this (their object is `size` bytes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('blocks')
    .addColumn('encoding', 'text', (c) => c.notNull().defaultTo('identity'))
    .execute();
  await db.schema.alterTable('blocks').addColumn('stored_size', 'integer').execute();
}
