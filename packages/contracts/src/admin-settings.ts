import { z } from 'zod';

/** The tabs of /admin/settings that read a group of settings (the server tab reads the status instead). */
export const SETTINGS_GROUPS = [
  'appearance',
  'index',
  'environment',
  'others',
  'sign-in',
  'adsense',
  'payments',
] as const;
export const SettingsGroup = z.enum(SETTINGS_GROUPS);
export type SettingsGroup = z.infer<typeof SettingsGroup>;

export const AdminSettingsQuery = z.object({ group: SettingsGroup.optional() });

/**
 * GET /api/admin/settings: `{ name: value }`. A secret (a whole setting, or a field inside one such
 * as `s3.secretAccessKey` or a provider's `client_secret`) reads `null` with a sibling `{name}_set`.
 */
export const AdminSettings = z.record(z.string(), z.unknown());
export type AdminSettings = z.infer<typeof AdminSettings>;

/** POST /api/admin/settings: each value is checked by its setting's own rule (422 naming it). */
export const AdminSettingsBody = z.object({ settings: z.record(z.string(), z.unknown()) });
export type AdminSettingsBody = z.infer<typeof AdminSettingsBody>;

/** The images the appearance tab uploads, each re-encoded to the sizes its place needs. */
export const SETTINGS_IMAGE_NAMES = [
  'app_logo',
  'app_logo_dark',
  'app_logo_horizontal',
  'app_logo_horizontal_dark',
  'app_favicon',
  'app_og_image',
] as const;
export const SettingsImageName = z.enum(SETTINGS_IMAGE_NAMES);
export type SettingsImageName = z.infer<typeof SettingsImageName>;
export const SETTINGS_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** POST /api/admin/settings/image answer; `url` is public and changes with every upload. */
export const SettingsImageAnswer = z.object({ name: SettingsImageName, url: z.string() });
export type SettingsImageAnswer = z.infer<typeof SettingsImageAnswer>;

/** GET /api/app-images/{key}/{variant}: `touch` is the favicon's 180 px home-screen size. */
export const AppImageParams = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  variant: z.enum(['main', 'touch']),
});

/** The ad slots the product has places for; each holds the network's slot id or null. */
export const ADSENSE_SLOTS = ['homepage', 'file_browser', 'share_page'] as const;
export const AdsenseSlots = z.object(
  Object.fromEntries(
    ADSENSE_SLOTS.map((slot) => [
      slot,
      z
        .string()
        .trim()
        .regex(/^\d{1,20}$/, 'validation.adsense_slot')
        .nullable(),
    ]),
  ) as Record<(typeof ADSENSE_SLOTS)[number], z.ZodNullable<z.ZodString>>,
);
export type AdsenseSlots = z.infer<typeof AdsenseSlots>;

const Check = z.object({ ok: z.boolean(), detail: z.string() });

/** GET /api/admin/server-status: what the admin's server tab shows. */
export const ServerStatus = z.object({
  runtime: z.object({
    node: z.string(),
    platform: z.string(),
    uptime_seconds: z.number(),
    memory: z.object({ rss: z.number(), heap_used: z.number(), heap_total: z.number() }),
  }),
  disk: z
    .object({ path: z.string(), free: z.number(), total: z.number() })
    .nullable()
    .describe('the data folder of the local storage driver; null on S3'),
  storage: z.object({ driver: z.enum(['local', 's3']) }),
  database: z.object({ dialect: z.enum(['sqlite', 'postgres']), version: z.string() }),
  queue: z.object({
    driver: z.enum(['database', 'bullmq']),
    waiting: z.number().int(),
    failed: z.number().int(),
  }),
  ffmpeg: Check,
  chromium: Check,
  errors: z.array(
    z.object({
      at: z.string(),
      status: z.number().int(),
      method: z.string(),
      path: z.string(),
      error: z.string(),
    }),
  ),
});
export type ServerStatus = z.infer<typeof ServerStatus>;
