import type { Database } from '../../db/database';
import type { NewUser, UserRow, UserSettingsRow, UserUpdate } from '../../db/schema';

export type UserSettingColumn = 'first_name' | 'last_name' | 'theme_mode' | 'emoji_type' | 'locale';

export class UsersRepository {
  constructor(
    private readonly database: Database,
    /** The app's clock: changes are stamped with it. */
    private readonly now: () => Date,
  ) {}

  findById(id: string): Promise<UserRow | undefined> {
    return this.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The bytes an administrator let the account hold (null: the instance default); undefined when it is gone. */
  async storageCapacity(id: string): Promise<Pick<UserRow, 'storage_capacity'> | undefined> {
    return this.database.db
      .selectFrom('users')
      .select('storage_capacity')
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The names of the accounts of these ids that exist (who saved a file's versions). */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async adminIds(): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Whether any account has an avatar stored. */
  async holdsAnyAvatar(): Promise<boolean> {
    const found = await this.database.db
      .selectFrom('users')
      .select('id')
      .where('avatar', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return found !== undefined;
  }

  async existsAvatar(avatar: string): Promise<boolean> {
    const found = await this.database.db
      .selectFrom('users')
      .select('id')
      .where('avatar', '=', avatar)
      .executeTakeFirst();
    return found !== undefined;
  }

  /**
   * The account's avatar as stored now (not as a request read it), its row locked on PostgreSQL until
   * the caller's unit of work ends, so of two changes at once the later sees the earlier's avatar.
   * Undefined when the account is gone.
   */
  lockAvatar(id: string): Promise<Pick<UserRow, 'avatar'> | undefined> {
    const query = this.database.db.selectFrom('users').select('avatar').where('id', '=', id);
    return (this.database.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  /** See AccountHolds: a key-share lock on PostgreSQL, which clashes with the account's deletion alone. */
  async holdAccount(id: string): Promise<boolean> {
    const query = this.database.db.selectFrom('users').select('id').where('id', '=', id);
    return (
      (await (this.database.dialect === 'postgres' ? query.forKeyShare() : query).executeTakeFirst()) !==
      undefined
    );
  }

  /** The user and its settings row, together or not at all. */
  insert(user: NewUser): Promise<UserRow> {
    return this.database.transaction(async (trx) => {
      const row = await trx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
      await trx.insertInto('user_settings').values({ user_id: row.id, updated_at: row.created_at }).execute();
      return row;
    });
  }

  async update(id: string, changes: UserUpdate): Promise<void> {
    await this.database.db
      .updateTable('users')
      .set({ ...changes, updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  findSettings(userId: string): Promise<UserSettingsRow | undefined> {
    return this.database.db
      .selectFrom('user_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async updateSetting(userId: string, column: UserSettingColumn, value: string | null): Promise<void> {
    await this.database.db
      .updateTable('user_settings')
      .set({ [column]: value, updated_at: this.now().toISOString() })
      .where('user_id', '=', userId)
      .execute();
  }
}
