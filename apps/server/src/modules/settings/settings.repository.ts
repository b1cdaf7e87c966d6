import type { Database } from '../../db/database';

export class SettingsRepository {
  constructor(private readonly database: Database) {}

  async all(): Promise<Array<{ key: string; value: string }>> {
    return this.database.db.selectFrom('settings').select(['key', 'value']).execute();
  }

  async upsert(entries: Array<{ key: string; value: string }>): Promise<void> {
    if (entries.length === 0) return;
    const updated_at = new Date().toISOString();
    await this.database.db
      .insertInto('settings')
      .values(entries.map((e) => ({ ...e, updated_at })))
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
      )
      .execute();
  }
}
