import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Column conventions shared by every table on both dialects: ids are UUID text made by the app,
// timestamps are ISO-8601 strings (text on SQLite, timestamptz on PostgreSQL parsed back to ISO),
// booleans are integers 0/1, and settings values are JSON text.

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  role: 'admin' | 'user';
  color: string;
  /** Per-user storage capacity in bytes; null means the instance default. */
  storage_capacity: number | null;
  email_verified_at: string | null;
  two_factor_confirmed_at: string | null;
  /** The storage key of the uploaded avatar's sizes; null shows the letter avatar. */
  avatar: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value; the raw id never reaches the database. */
  id: string;
  /** What the devices list names the session by; `id` never leaves the server. */
  public_id: string;
  user_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_active_at: string;
  expires_at: string;
}

/** Shape of both single-use token tables (password_resets, email_verifications). */
export interface UserTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface PagesTable {
  slug: string;
  title: string;
  content: string;
  visibility: number;
  updated_at: string;
}

/** A language the admin added (English is always there); its strings are English until overridden. */
export interface LanguagesTable {
  locale: string;
  name: string;
  created_at: string;
}

/** An admin's text for one key of one language, beside the shipped strings of the code. */
export interface TranslationOverridesTable {
  locale: string;
  key: string;
  value: string;
  /** The English text when the override was made; a different English text now means outdated. */
  source: string;
  updated_at: string;
}

export interface UserSettingsTable {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  theme_mode: Generated<string>;
  emoji_type: Generated<string>;
  /** Null: not chosen (the browser's language or the instance default applies). */
  locale: string | null;
  updated_at: string;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: UserTokensTable;
  email_verifications: UserTokensTable;
  settings: SettingsTable;
  pages: PagesTable;
  languages: LanguagesTable;
  translation_overrides: TranslationOverridesTable;
  user_settings: UserSettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type UserSettingsRow = Selectable<UserSettingsTable>;
export type PageRow = Selectable<PagesTable>;
