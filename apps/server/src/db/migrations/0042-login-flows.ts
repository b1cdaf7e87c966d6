import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Sign-ins of sync clients through the browser (Nextcloud's Login Flow v2, issue 26). A flow is
 * found by the SHA-256 of either of its two tokens: the poll token only the client holds, the login
 * token of the page the person opens. `user_id` is set once the person grants it; the client's poll
 * then takes the row away and gets a fresh app password.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('login_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('poll_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('login_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_flows_expires_at_index')
    .on('login_flows')
    .column('expires_at')
    .execute();
}
