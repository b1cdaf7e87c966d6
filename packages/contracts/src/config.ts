import { z } from 'zod';
import { AdsenseSlots } from './admin-settings';
import { BroadcastingDriver, InstallationState, SubscriptionType } from './enums';
import { PublicSocialProvider } from './social';

/** GET /api/config: the public part of the instance settings. */
export const PublicConfig = z.object({
  app: z.object({
    name: z.string(),
    description: z.string(),
    /**
     * URLs of the uploaded images (null: the built-in mark); a `_dark` logo replaces its light one in
     * the dark theme; the favicon's 180 px size is `touch_icon`.
     */
    logo: z.string().nullable(),
    logo_dark: z.string().nullable(),
    logo_horizontal: z.string().nullable(),
    logo_horizontal_dark: z.string().nullable(),
    favicon: z.string().nullable(),
    touch_icon: z.string().nullable(),
    og_image: z.string().nullable(),
    contactEmail: z.string(),
    /** The admin's accent colour (`#rrggbb`; null: the built-in clay); accentPalette() makes it readable. */
    accent: z.string().nullable(),
  }),
  /** The homepage's own title and lead; null: the translated defaults. */
  homepage: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
  /** The ad network's publisher id and slots when the admin set one; nothing loads them yet. */
  adsense: z.object({ clientId: z.string(), slots: AdsenseSlots }).nullable(),
  chunkSize: z.number().int(),
  uploadLimit: z.number().int(),
  mimetypesBlacklist: z.array(z.string()),
  subscriptionType: SubscriptionType,
  storageLimit: z.boolean(),
  installation: InstallationState,
  /** The default language; `languages` are all the instance has (English included). */
  locale: z.string(),
  languages: z.array(z.object({ locale: z.string(), name: z.string() })),
  allowHomepage: z.boolean(),
  registration: z.boolean(),
  emailVerification: z.boolean(),
  maintenance: z.boolean(),
  /** The enabled social sign-in providers, for the sign-in page's buttons. */
  socialProviders: z.array(PublicSocialProvider),
  broadcasting: z.object({ driver: BroadcastingDriver, path: z.string().optional() }),
  userGuideUrl: z.string().nullable(),
  supportEmail: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
