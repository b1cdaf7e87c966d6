import type { Database } from '../../db/database';

export class SettingsRepository {
  constructor(
    private readonly database: Database,
    /** The app's clock: rows are stamped with it. */
    private readonly now: () => Date,
  ) {}

  async all(): Promise<Array<{ key: string; value: string }>> {
    return this.database.db.selectFrom('settings').select(['key', 'value']).execute();
  }

  async upsert(entries: Array<{ key: string; value: string }>): Promise<void> {
    if (entries.length === 0) return;
    const updated_at = this.now().toISOString();
    await this.database.db
      .insertInto('settings')
      .values(entries.map((e) => ({ ...e, updated_at })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  /**
   * Stores one setting and answers the value its row held (undefined: none), in one transaction (the
   * caller's unit of work when there is one) holding the row's lock on PostgreSQL: of two swaps at
   * once, the later waits for the earlier and reads its value.
   */
  async swap(key: string, value: string): Promise<string | undefined> {
    return this.database.transaction(async () => {
      // An insert first, so a row is there to lock: of two first swaps of a key, the later insert
      // waits for the earlier's commit and then reads its value, where two reads would find none.
      if (await this.insertIfAbsent(key, value)) return undefined;
      const row = this.database.db.selectFrom('settings').select('value').where('key', '=', key);
      const { value: previous } = await (
        this.database.dialect === 'postgres' ? row.forUpdate() : row
      ).executeTakeFirstOrThrow();
      await this.upsert([{ key, value }]);
      return previous;
    });
  }

  /** Inserts the row only when the key is absent; true when this call inserted it. */
  async insertIfAbsent(key: string, value: string): Promise<boolean> {
    const result = await this.database.db
      .insertInto('settings')
      .values({ key, value, updated_at: this.now().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
