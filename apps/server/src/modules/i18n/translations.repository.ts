import type { Database } from '../../db/database';
import type { LanguagesTable, TranslationOverridesTable } from '../../db/schema';

export type LanguageRow = LanguagesTable;
export type OverrideRow = TranslationOverridesTable;

/** The languages an admin added and their overrides; the shipped strings are not stored. */
export class TranslationsRepository {
  constructor(private readonly database: Database) {}

  languages(): Promise<LanguageRow[]> {
    return this.database.db
      .selectFrom('languages')
      .selectAll()
      .orderBy('created_at')
      .orderBy('locale')
      .execute();
  }

  /** Every language's code (English included). */
  async locales(): Promise<string[]> {
    const rows = await this.database.db.selectFrom('languages').select('locale').execute();
    return rows.map((row) => row.locale);
  }

  findLanguage(locale: string): Promise<LanguageRow | undefined> {
    return this.database.db
      .selectFrom('languages')
      .selectAll()
      .where('locale', '=', locale)
      .executeTakeFirst();
  }

  /** False when the language exists already. */
  async insertLanguage(row: LanguageRow): Promise<boolean> {
    const inserted = await this.database.db
      .insertInto('languages')
      .values(row)
      .onConflict((oc) => oc.column('locale').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The language and its overrides. */
  async deleteLanguage(locale: string): Promise<void> {
    await this.database.db.deleteFrom('translation_overrides').where('locale', '=', locale).execute();
    await this.database.db.deleteFrom('languages').where('locale', '=', locale).execute();
  }

  overrides(locale: string): Promise<OverrideRow[]> {
    return this.database.db
      .selectFrom('translation_overrides')
      .selectAll()
      .where('locale', '=', locale)
      .execute();
  }

  /** Every override's key and source, per language, for the progress figures. */
  allOverrideSources(): Promise<Array<Pick<OverrideRow, 'locale' | 'key' | 'source'>>> {
    return this.database.db.selectFrom('translation_overrides').select(['locale', 'key', 'source']).execute();
  }

  async upsertOverride(row: OverrideRow): Promise<void> {
    await this.database.db
      .insertInto('translation_overrides')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['locale', 'key']).doUpdateSet({
          value: row.value,
          source: row.source,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  /** False when there was no override to remove. */
  async deleteOverride(locale: string, key: string): Promise<boolean> {
    const deleted = await this.database.db
      .deleteFrom('translation_overrides')
      .where('locale', '=', locale)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }
}
