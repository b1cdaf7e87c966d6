import {
  AccentColor,
  AdsenseSlots,
  BroadcastingSetup,
  Email,
  SocialProviderConfigInput,
  SubscriptionType,
  type SettingsGroup,
} from '@atelier/contracts';
import { z } from 'zod';
import type { Settings } from './settings.defaults';

const MEGABYTE = 1024 * 1024;

const text = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.too_long');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'validation.too_long')
    .nullable()
    .transform((v) => v || null);
const httpUrl = z
  .string()
  .trim()
  .url('validation.settings_url')
  .max(500)
  .refine((v) => /^https?:\/\//i.test(v), 'validation.settings_url');
const count = (min: number, max: number) =>
  z
    .number({ message: 'validation.number' })
    .int('validation.integer')
    .min(min, 'validation.min')
    .max(max, 'validation.max');

/** `image/png`, `application/x-msdownload`, or a family such as `video/*`. */
const MimeType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9.+-]*\/(\*|[a-z0-9][a-z0-9.+-]*)$/, 'validation.mimetype');

/** A setting the environment tab writes: the server proves it works (settings-environment.ts) first. */
const S3Input = z.object({
  endpoint: httpUrl.optional(),
  region: text(100),
  bucket: text(255),
  accessKeyId: text(500),
  /** Left out or null: the stored secret stays. */
  secretAccessKey: z.string().min(1).max(500).nullish(),
  forcePathStyle: z.boolean().default(true),
});
export type S3Input = z.infer<typeof S3Input>;

/**
 * Every setting an admin may write, each with its own rule; anything else (installed, the purchase
 * code, the image keys other than clearing them) is refused by name. Numbers arrive as JSON numbers.
 */
export const SETTING_RULES = {
  app_title: text(120),
  app_description: optionalText(500).transform((v) => v ?? ''),
  contact_email: Email,
  support_email: Email.nullable(),
  user_guide_url: httpUrl.nullable(),
  // Images are set by their upload; here they may only be removed.
  app_logo: z.null({ message: 'validation.image_upload' }),
  app_logo_dark: z.null({ message: 'validation.image_upload' }),
  app_logo_horizontal: z.null({ message: 'validation.image_upload' }),
  app_logo_horizontal_dark: z.null({ message: 'validation.image_upload' }),
  app_favicon: z.null({ message: 'validation.image_upload' }),
  app_og_image: z.null({ message: 'validation.image_upload' }),
  // Any hue is taken: accentPalette() darkens or lightens it per theme until text on and in it reads.
  app_accent_color: AccentColor.nullable(),

  allow_homepage: z.boolean({ message: 'validation.boolean' }),
  homepage_title: optionalText(160),
  homepage_description: optionalText(600),

  storage_driver: z.enum(['local', 's3']),
  s3: S3Input.nullable(),
  mail_driver: z.enum(['log', 'smtp']),
  smtp_url: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/i, 'validation.smtp_url')
    .max(1000)
    .nullable(),
  mail_from: Email.nullable(),
  broadcasting_driver: BroadcastingSetup.shape.driver,

  registration: z.boolean({ message: 'validation.boolean' }),
  email_verification: z.boolean({ message: 'validation.boolean' }),
  file_manager_cutoff: z.iso.date('validation.date'),
  file_manager_for_all: z.boolean({ message: 'validation.boolean' }),
  storage_limitation: z.boolean({ message: 'validation.boolean' }),
  default_storage_gb: z
    .number({ message: 'validation.number' })
    .min(0, 'validation.min')
    .max(1_000_000, 'validation.max'),
  default_team_members: count(-1, 100_000),
  upload_limit: count(0, Number.MAX_SAFE_INTEGER),
  versions_keep_all_days: count(0, 3650),
  versions_keep_daily_days: count(0, 3650),
  // The chunk is one request body: at least 1 MB so uploads make progress, at most 100 MB.
  chunk_size: count(MEGABYTE, 100 * MEGABYTE),
  mimetypes_blacklist: z.array(MimeType).max(200),
  maintenance: z.boolean({ message: 'validation.boolean' }),
  locale: z.string().trim().min(2).max(20),

  social_providers: z.array(SocialProviderConfigInput).max(20),

  adsense_client_id: z
    .string()
    .trim()
    .regex(/^ca-pub-\d{10,20}$/, 'validation.adsense_client')
    .nullable(),
  adsense_slots: AdsenseSlots,

  subscription_type: SubscriptionType,
  allowed_payment_drivers: z.array(z.enum(['stripe', 'paypal', 'paystack'])).max(3),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'validation.currency'),
  stripe_public_key: optionalText(500),
  stripe_secret_key: optionalText(500),
  stripe_webhook_secret: optionalText(500),
  paystack_public_key: optionalText(500),
  paystack_secret_key: optionalText(500),
  paypal_client_id: optionalText(500),
  paypal_secret: optionalText(500),
  paypal_webhook_id: optionalText(500),
} satisfies Partial<Record<keyof Settings, z.ZodType>>;

export type EditableSetting = keyof typeof SETTING_RULES;

export const isEditable = (name: string): name is EditableSetting => Object.hasOwn(SETTING_RULES, name);

/** Which tab reads which settings (GET /api/admin/settings?group=). */
export const SETTING_GROUPS: Record<SettingsGroup, EditableSetting[]> = {
  appearance: [
    'app_title',
    'app_description',
    'contact_email',
    'support_email',
    'user_guide_url',
    'app_logo',
    'app_logo_dark',
    'app_logo_horizontal',
    'app_logo_horizontal_dark',
    'app_favicon',
    'app_og_image',
    'app_accent_color',
  ],
  index: ['allow_homepage', 'homepage_title', 'homepage_description'],
  environment: ['storage_driver', 's3', 'mail_driver', 'smtp_url', 'mail_from', 'broadcasting_driver'],
  others: [
    'registration',
    'email_verification',
    'file_manager_for_all',
    'file_manager_cutoff',
    'storage_limitation',
    'default_storage_gb',
    'default_team_members',
    'upload_limit',
    'chunk_size',
    'versions_keep_all_days',
    'versions_keep_daily_days',
    'mimetypes_blacklist',
    'maintenance',
    'locale',
  ],
  'sign-in': ['social_providers'],
  adsense: ['adsense_client_id', 'adsense_slots'],
  payments: [
    'subscription_type',
    'allowed_payment_drivers',
    'currency',
    'stripe_public_key',
    'stripe_secret_key',
    'stripe_webhook_secret',
    'paystack_public_key',
    'paystack_secret_key',
    'paypal_client_id',
    'paypal_secret',
    'paypal_webhook_id',
  ],
};

/** Settings that are secrets as a whole: never read back, and a null or absent value keeps them. */
export const SECRET_SETTINGS: ReadonlySet<EditableSetting> = new Set([
  'smtp_url',
  'stripe_secret_key',
  'stripe_webhook_secret',
  'paystack_secret_key',
  'paypal_secret',
]);
