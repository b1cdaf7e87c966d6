import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * Social sign-in: the provider identities linked to accounts, the sign-ins under way at a provider,
 * and the generated password of accounts a provider created (until their owner chooses one).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('social_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The provider's name in the settings (the `{provider}` of the URLs). */
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The provider's stable id of the person (`sub`, GitHub's or Facebook's user id). */
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('social_accounts_provider_subject_unique', ['provider', 'subject'])
    .addUniqueConstraint('social_accounts_user_provider_unique', ['user_id', 'provider'])
    .execute();

  await db.schema
    .createTable('social_sign_in_requests')
    /** SHA-256 of the `state` sent to the provider. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    /** The user who asked to link the provider; null for a sign-in. */
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    /** SHA-256 of the cookie that binds the request to the browser that started it. */
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('social_generated_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    /** The users.password_hash given at creation; while they are equal, no password was chosen. */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .execute();
}
