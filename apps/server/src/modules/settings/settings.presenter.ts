import type { PublicConfig } from '@atelier/contracts';
import { appImageUrl } from './settings-images.service';
import type { Settings } from './settings.defaults';

/** The public part of the settings: what GET /api/config shows to anyone. */
export function presentPublicConfig(s: Settings, languages: PublicConfig['languages']): PublicConfig {
  return {
    app: {
      name: s.app_title,
      description: s.app_description,
      logo: appImageUrl(s.app_logo),
      logo_dark: appImageUrl(s.app_logo_dark),
      logo_horizontal: appImageUrl(s.app_logo_horizontal),
      logo_horizontal_dark: appImageUrl(s.app_logo_horizontal_dark),
      favicon: appImageUrl(s.app_favicon),
      touch_icon: appImageUrl(s.app_favicon, 'touch'),
      og_image: appImageUrl(s.app_og_image),
      contactEmail: s.contact_email,
      accent: s.app_accent_color,
    },
    homepage: { title: s.homepage_title, description: s.homepage_description },
    adsense: s.adsense_client_id ? { clientId: s.adsense_client_id, slots: s.adsense_slots } : null,
    chunkSize: s.chunk_size,
    uploadLimit: s.upload_limit,
    mimetypesBlacklist: s.mimetypes_blacklist,
    subscriptionType: s.subscription_type,
    storageLimit: s.storage_limitation,
    installation: s.installed ? 'installation-done' : 'installation-needed',
    locale: s.locale,
    languages,
    allowHomepage: s.allow_homepage,
    registration: s.registration,
    emailVerification: s.email_verification,
    maintenance: s.maintenance,
    socialProviders: s.social_providers
      .filter((p) => p.enabled)
      .map((p) => ({ name: p.name, kind: p.kind, label: p.label ?? null })),
    broadcasting:
      s.broadcasting_driver === 'socket.io'
        ? { driver: 'socket.io', path: '/socket.io' }
        : { driver: s.broadcasting_driver },
    userGuideUrl: s.user_guide_url,
    supportEmail: s.support_email,
  };
}
