import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { timestamp } from './column-types';

/**
 * The language editor's storage. Shipped strings live in the code (contracts `en`), so an upgrade's
 * new or changed English text reaches every install; the database keeps only the languages an admin
 * added and their overrides, each with the English text it was made against (`source`), so an
 * override whose English changed since shows as outdated. The old `translations` table held a seeded
 * copy of the English strings that upgrades never refreshed; its non-English rows (none are made by
 * the product before this) become overrides with an unknown source, which shows them as outdated.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = timestamp(dialect);
  await db.schema
    .createTable('languages')
    .addColumn('locale', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('translation_overrides')
    .addColumn('locale', 'text', (c) => c.notNull().references('languages.locale').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_overrides_pkey', ['locale', 'key'])
    .execute();

  const now = new Date().toISOString();
  await sql`insert into languages (locale, name, created_at) values ('en', 'English', ${now})`.execute(db);
  await sql`
    insert into languages (locale, name, created_at)
    select distinct locale, locale, cast(${now} as ${sql.raw(ts)}) from translations where locale <> 'en'
  `.execute(db);
  await sql`
    insert into translation_overrides (locale, key, value, source, updated_at)
    select locale, key, value, '', cast(${now} as ${sql.raw(ts)}) from translations where locale <> 'en'
  `.execute(db);
  await db.schema.dropTable('translations').execute();
}
