import {
  ACCOUNT_AGE_CUTOFF,
  type FileManagerAccess,
  type AdsenseSlots,
  type BroadcastingDriver,
  type SocialProviderConfig,
  type SubscriptionType,
} from '@atelier/contracts';

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Every instance setting, stored one row per key in `settings` as JSON. */
export interface Settings {
  installed: boolean;
  purchase_code: string | null;
  app_title: string;
  app_description: string;
  app_logo: string | null;
  app_logo_dark: string | null;
  app_logo_horizontal: string | null;
  app_logo_horizontal_dark: string | null;
  app_favicon: string | null;
  /** The storage key of each uploaded image (settings-images.ts turns it into a public URL). */
  app_og_image: string | null;
  /** `#rrggbb`, the primary colour of every page and e-mail; null keeps the built-in clay. */
  app_accent_color: string | null;
  /** The homepage's own title and lead; null shows the translated defaults. */
  homepage_title: string | null;
  homepage_description: string | null;
  contact_email: string;
  support_email: string | null;
  user_guide_url: string | null;
  /** Bytes per upload chunk. */
  chunk_size: number;
  /** Largest upload in bytes; 0 means no limit. */
  upload_limit: number;
  /** Every version of a file is kept this many days, then one a day (see versions.service.ts). */
  versions_keep_all_days: number;
  /** Versions older than this many days are let go of. */
  versions_keep_daily_days: number;
  mimetypes_blacklist: string[];
  subscription_type: SubscriptionType;
  /** Whether per-user storage capacity is enforced. */
  storage_limitation: boolean;
  /** Default capacity per user in GB when storage limitation is on. */
  default_storage_gb: number;
  /** Team members a user may invite; -1 means unlimited. */
  default_team_members: number;
  allow_homepage: boolean;
  registration: boolean;
  /** A calendar day (YYYY-MM-DD): accounts created from it on get the studio only (dateStatus false)... */
  file_manager_cutoff: string;
  /** ...unless this is on: then every account gets the file manager too. */
  file_manager_for_all: boolean;
  email_verification: boolean;
  locale: string;
  broadcasting_driver: BroadcastingDriver;
  maintenance: boolean;
  /** Social sign-in providers with their client secrets (docs/social-sign-in.md). */
  social_providers: SocialProviderConfig[];
  /** Chosen in the setup wizard; STORAGE_DRIVER in the environment takes precedence. */
  storage_driver: 'local' | 's3' | null;
  s3: S3Settings | null;
  /** Chosen in the setup wizard; SMTP_URL in the environment takes precedence. */
  mail_driver: 'log' | 'smtp';
  smtp_url: string | null;
  mail_from: string | null;
  /** The ad network's publisher id (ca-pub-…) and slot ids; exposed in the config, loaded by nothing yet. */
  adsense_client_id: string | null;
  adsense_slots: AdsenseSlots;
  allowed_payment_drivers: Array<'stripe' | 'paypal' | 'paystack'>;
  currency: string;
  stripe_public_key: string | null;
  stripe_secret_key: string | null;
  stripe_webhook_secret: string | null;
  paystack_public_key: string | null;
  paystack_secret_key: string | null;
  paypal_client_id: string | null;
  paypal_secret: string | null;
  paypal_webhook_id: string | null;
}

export const SETTING_DEFAULTS: Settings = {
  installed: false,
  purchase_code: null,
  app_title: 'Atelier',
  app_description: 'Store, share and render your files.',
  app_logo: null,
  app_logo_dark: null,
  app_logo_horizontal: null,
  app_logo_horizontal_dark: null,
  app_favicon: null,
  app_og_image: null,
  app_accent_color: null,
  homepage_title: null,
  homepage_description: null,
  contact_email: '',
  support_email: null,
  user_guide_url: null,
  chunk_size: 8 * 1024 * 1024,
  upload_limit: 0,
  versions_keep_all_days: 30,
  versions_keep_daily_days: 180,
  mimetypes_blacklist: [],
  subscription_type: 'none',
  storage_limitation: true,
  default_storage_gb: 5,
  default_team_members: -1,
  allow_homepage: true,
  registration: true,
  file_manager_cutoff: ACCOUNT_AGE_CUTOFF,
  file_manager_for_all: false,
  email_verification: false,
  locale: 'en',
  broadcasting_driver: 'socket.io',
  maintenance: false,
  social_providers: [],
  storage_driver: null,
  s3: null,
  mail_driver: 'log',
  smtp_url: null,
  mail_from: null,
  adsense_client_id: null,
  adsense_slots: { homepage: null, file_browser: null, share_page: null },
  allowed_payment_drivers: [],
  currency: 'USD',
  stripe_public_key: null,
  stripe_secret_key: null,
  stripe_webhook_secret: null,
  paystack_public_key: null,
  paystack_secret_key: null,
  paypal_client_id: null,
  paypal_secret: null,
  paypal_webhook_id: null,
};

/** Who gets the file manager, as the user resource's dateStatus reads it. */
export function fileManagerAccess(settings: Settings): FileManagerAccess {
  return { cutoff: settings.file_manager_cutoff, forAll: settings.file_manager_for_all };
}

export const GIGABYTE = 1_000_000_000;
