import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { bigInteger, timestamp } from './column-types';

/**
 * Two-factor sign-in. The TOTP secret sits in its own table, not on `users`, so it never travels
 * with the user rows every request reads; `last_used_step` is the last accepted 30-second step, so
 * a code cannot be replayed. Recovery codes are kept only as hashes and are deleted when used. A
 * challenge is a sign-in that proved the password and waits for the code (the cookie's hash).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);

  await db.schema
    .createTable('two_factor_credentials')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('last_used_step', bigInteger(dialect))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('two_factor_recovery_codes_pkey', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_factor_challenges_user_id_index')
    .on('two_factor_challenges')
    .column('user_id')
    .execute();
}
