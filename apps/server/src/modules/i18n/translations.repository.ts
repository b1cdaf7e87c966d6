import type { Database } from '../../db/database';

export class TranslationsRepository {
  constructor(private readonly database: Database) {}

  async forLocale(locale: string): Promise<Array<{ key: string; value: string }>> {
    return this.database.db
      .selectFrom('translations')
      .select(['key', 'value'])
      .where('locale', '=', locale)
      .execute();
  }

  /** Every language that has at least one string. */
  async locales(): Promise<string[]> {
    const rows = await this.database.db.selectFrom('translations').select('locale').distinct().execute();
    return rows.map((row) => row.locale);
  }

  /** Adds keys that are missing; values an admin edited stay as they are. */
  async insertMissing(locale: string, messages: Record<string, string>): Promise<void> {
    const rows = Object.entries(messages).map(([key, value]) => ({ locale, key, value }));
    // Batches keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 300) {
      await this.database.db
        .insertInto('translations')
        .values(rows.slice(i, i + 300))
        .onConflict((oc) => oc.columns(['locale', 'key']).doNothing())
        .execute();
    }
  }
}
