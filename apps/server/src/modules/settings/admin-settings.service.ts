import {
  SocialProvidersSetting,
  type AdminSettings,
  type SettingsGroup,
  type SocialProviderConfig,
  type SocialProviderConfigInput,
} from '@atelier/contracts';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { UnitOfWork } from '../../db/database';
import { AppError } from '../../lib/app-error';
import { probeEnvironment, type EnvironmentChoice } from '../setup/setup.checks';
import type { S3Settings, Settings } from './settings.defaults';
import { clearedImages, type SettingsImagesService } from './settings-images.service';
import {
  isEditable,
  SECRET_SETTINGS,
  SETTING_GROUPS,
  SETTING_RULES,
  type EditableSetting,
  type S3Input,
} from './settings.rules';
import type { SettingsService } from './settings.service';

export interface AdminSettingsDeps {
  settings: SettingsService;
  images: SettingsImagesService;
  units: UnitOfWork;
  /** The languages that exist (the default locale must be one of them). */
  locales: () => Promise<string[]>;
  dataDir: string;
  redis: Redis | null;
  /**
   * Whether anything is stored on the storage: files' bytes, uploads under way, avatars, the
   * instance's images. Each stays on the storage it is on.
   */
  holdsObjects: () => Promise<boolean>;
  /** Told what was saved, once it is stored (billing queues plan registrations for new payment keys). */
  onSaved?: (changed: Partial<Settings>) => Promise<void>;
}

type FieldErrors = Record<string, string[]>;

const ENVIRONMENT_SETTINGS: EditableSetting[] = SETTING_GROUPS.environment;

/** Field paths of zod issues under the setting's name: `s3.bucket`, `social_providers.0.issuer`. */
function addIssues(errors: FieldErrors, name: string, error: z.ZodError): void {
  for (const issue of error.issues) {
    const field = [name, ...issue.path.map(String)].join('.');
    (errors[field] ??= []).push(issue.message);
  }
}

/**
 * What the admin's settings tabs read and write: per-setting validation, secrets write-only (read
 * back as null with `{name}_set`; a null or absent secret keeps the stored one), environment choices
 * proved to work before they are stored, and every process told at once (SettingsService's bus).
 */
export class AdminSettingsService {
  constructor(private readonly deps: AdminSettingsDeps) {}

  async read(group?: SettingsGroup): Promise<AdminSettings> {
    const settings = await this.deps.settings.all();
    const names = group ? SETTING_GROUPS[group] : Object.values(SETTING_GROUPS).flat();
    const answer: AdminSettings = {};
    for (const name of names) Object.assign(answer, redact(name, settings));
    return answer;
  }

  /** Stores every given setting or none: a bad one is a 422 naming each offender. */
  async update(input: Record<string, unknown>): Promise<void> {
    const current = await this.deps.settings.all();
    const errors: FieldErrors = {};
    const values: Partial<Settings> = {};
    const target = values as Record<string, unknown>;

    for (const [name, raw] of Object.entries(input)) {
      if (!isEditable(name)) {
        errors[name] = ['validation.unknown_setting'];
        continue;
      }
      // A secret left null keeps the stored one: the admin never reads it back to send it again.
      if (SECRET_SETTINGS.has(name) && raw == null) continue;
      const parsed = (SETTING_RULES[name] as z.ZodType).safeParse(raw);
      if (!parsed.success) {
        addIssues(errors, name, parsed.error);
        continue;
      }
      target[name] = parsed.data;
    }

    if ('s3' in values && values.s3) values.s3 = keepS3Secret(values.s3 as S3Input, current.s3, errors);
    if ('social_providers' in values)
      values.social_providers = keepProviderSecrets(
        values.social_providers as unknown as SocialProviderConfigInput[],
        current.social_providers,
        errors,
      );
    if (values.locale !== undefined && !(await this.deps.locales()).includes(values.locale))
      errors.locale = ['validation.locale_unknown'];
    if (Object.keys(errors).length > 0)
      throw new AppError('validation_failed', 'errors.validation_failed', errors);

    // Files, avatars and logos record their object's key, not the storage holding it: pointed at
    // another storage, everything stored so far (an upload's parts under way too) would be out of
    // reach, and a deletion would purge keys from the wrong one.
    if (storagePlace(current) !== storagePlace({ ...current, ...values }) && (await this.deps.holdsObjects()))
      throw AppError.invalid('storage_driver', 'admin_settings.storage_in_use');
    if (ENVIRONMENT_SETTINGS.some((name) => name in values))
      await this.probe({ ...current, ...values }, values);
    await this.deps.units.transaction(async () => {
      for (const name of clearedImages(values)) await this.deps.images.clear(name);
      await this.deps.settings.set(values);
    });
    await this.deps.onSaved?.(values);
  }

  /** Tests each environment service the update touches, as the setup wizard does, before it is stored. */
  private async probe(next: Settings, changed: Partial<Settings>): Promise<void> {
    const choice: EnvironmentChoice = {};
    if ('storage_driver' in changed || 's3' in changed) {
      if (next.storage_driver === 's3' && !next.s3) throw AppError.invalid('s3', 'validation.required');
      choice.storage = next.storage_driver === 's3' ? { driver: 's3', ...next.s3! } : { driver: 'local' };
    }
    if ('mail_driver' in changed || 'smtp_url' in changed) {
      if (next.mail_driver === 'smtp' && !next.smtp_url)
        throw AppError.invalid('smtp_url', 'validation.required');
      choice.mail = next.mail_driver === 'smtp' ? { driver: 'smtp', url: next.smtp_url! } : { driver: 'log' };
    }
    if ('broadcasting_driver' in changed) choice.broadcasting = { driver: next.broadcasting_driver };
    await probeEnvironment(
      choice,
      { dataDir: this.deps.dataDir, redis: this.deps.redis },
      {
        storage: next.storage_driver === 's3' ? 's3' : 'storage_driver',
        mail: 'smtp_url',
        broadcasting: 'broadcasting_driver',
      },
    );
  }
}

/** One setting as the admin reads it: secrets as null beside `{name}_set`, at any depth. */
function redact(name: EditableSetting, settings: Settings): AdminSettings {
  const value = settings[name];
  if (SECRET_SETTINGS.has(name)) return { [name]: null, [`${name}_set`]: Boolean(value) };
  if (name === 's3' && settings.s3)
    return {
      s3: {
        ...settings.s3,
        secretAccessKey: null,
        secretAccessKey_set: Boolean(settings.s3.secretAccessKey),
      },
    };
  if (name === 'social_providers')
    return {
      social_providers: settings.social_providers.map((p) => ({
        ...p,
        client_secret: null,
        client_secret_set: Boolean(p.client_secret),
      })),
    };
  return { [name]: value };
}

function keepS3Secret(input: S3Input, stored: S3Settings | null, errors: FieldErrors): S3Settings | null {
  const secretAccessKey = input.secretAccessKey ?? stored?.secretAccessKey;
  if (!secretAccessKey) {
    errors['s3.secretAccessKey'] = ['validation.required'];
    return null;
  }
  return { ...input, secretAccessKey };
}

/** Where the settings put stored objects: local disk, or one bucket at one address. */
function storagePlace(settings: Pick<Settings, 'storage_driver' | 's3'>): string {
  return settings.storage_driver === 's3' && settings.s3
    ? `s3 ${settings.s3.endpoint ?? ''} ${settings.s3.bucket}`
    : 'local';
}

/**
 * Each provider sent without its secret keeps the one stored under its name while the secret would
 * still go where it went (the same kind, issuer and token endpoint): one pointed elsewhere needs its
 * secret typed again, or whoever can save settings could have the stored one sent to their server.
 * The whole list is then checked.
 */
function keepProviderSecrets(
  input: SocialProviderConfigInput[],
  stored: SocialProviderConfig[],
  errors: FieldErrors,
): SocialProviderConfig[] {
  const sameDestination = (p: SocialProviderConfigInput, s: SocialProviderConfig) =>
    s.name === p.name && s.kind === p.kind && s.issuer === p.issuer && s.token_endpoint === p.token_endpoint;
  const merged = input.map((p) => ({
    ...p,
    client_secret: p.client_secret || stored.find((s) => sameDestination(p, s))?.client_secret || '',
  }));
  const checked = SocialProvidersSetting.safeParse(merged);
  if (!checked.success) {
    addIssues(errors, 'social_providers', checked.error);
    return [];
  }
  return checked.data;
}
