import type { Database } from './db/database';
import type { Env } from './env';
import { I18nService } from './modules/i18n/i18n.service';
import { TranslationsRepository } from './modules/i18n/translations.repository';
import { SettingsRepository } from './modules/settings/settings.repository';
import { SettingsService } from './modules/settings/settings.service';

export interface ServiceOptions {
  env: Env;
  database: Database;
  /** True when DATABASE_URL fixes the database, so the setup wizard may not switch it. */
  databasePinned: boolean;
}

/** Wires repositories into services once; routes reach them through `app.deps`. */
export function createServices({ env, database, databasePinned }: ServiceOptions) {
  const settings = new SettingsService(new SettingsRepository(database));
  const i18n = new I18nService(new TranslationsRepository(database), settings);
  return { env, database, databasePinned, settings, i18n };
}

export type AppDeps = ReturnType<typeof createServices>;
