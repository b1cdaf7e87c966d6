import type { PublicConfig, UserResource } from '@atelier/contracts';

export function buildConfig(overrides: Partial<PublicConfig> = {}): PublicConfig {
  return {
    app: {
      name: 'Atelier',
      description: 'Files and renders',
      logo: null,
      logo_dark: null,
      logo_horizontal: null,
      logo_horizontal_dark: null,
      favicon: null,
      touch_icon: null,
      og_image: null,
      contactEmail: 'hello@atelier.test',
      accent: null,
    },
    homepage: { title: null, description: null },
    adsense: null,
    chunkSize: 8 * 1024 * 1024,
    uploadLimit: 0,
    mimetypesBlacklist: [],
    subscriptionType: 'none',
    storageLimit: true,
    installation: 'installation-done',
    locale: 'en',
    languages: [{ locale: 'en', name: 'English' }],
    allowHomepage: true,
    registration: true,
    emailVerification: false,
    maintenance: false,
    socialProviders: [],
    broadcasting: { driver: 'null' },
    userGuideUrl: null,
    supportEmail: 'support@atelier.test',
    ...overrides,
  };
}

interface UserOptions {
  role?: 'admin' | 'user';
  name?: string;
  dateStatus?: boolean;
  unread?: number;
  reason?: string | null;
}

export function buildUser({
  role = 'user',
  name = 'Ada Lovelace',
  dateStatus = true,
  unread = 0,
  reason = null,
}: UserOptions = {}): UserResource {
  return {
    data: {
      id: '6f1c2a8e-51b0-4b8e-9d1e-0c6c1f6b7a10',
      type: 'user',
      attributes: {
        role,
        name,
        email: 'ada@atelier.test',
        avatar: { xs: null, sm: null, md: null },
        letter: name.charAt(0),
        color: '#c4562f',
        two_factor_confirmed_at: null,
        email_verified_at: '2024-01-01T00:00:00.000Z',
        created_at: '2024-01-01T00:00:00.000Z',
        dateStatus,
      },
      relationships: {
        settings: {
          data: {
            type: 'settings',
            attributes: {
              first_name: 'Ada',
              last_name: 'Lovelace',
              name,
              theme_mode: 'light',
              emoji_type: 'twemoji',
              locale: null,
            },
          },
        },
        readNotifications: { data: [] },
        unreadNotifications: { data: Array.from({ length: unread }, (_, index) => ({ id: String(index) })) },
      },
    },
    meta: {
      usages: { costEstimate: null, used: 0, capacity: 5 },
      restrictions: {
        canUpload: reason === null,
        canDownload: true,
        canCreateFolder: true,
        canCreateTeamFolder: true,
        reason,
      },
      limitations: {
        max_team_members: { total: -1, use: 0 },
        max_storage_amount: { total: 5, use: 0 },
      },
      allowed_emails: [],
    },
  };
}

/** A project as the studio's API answers it (p1, one model, nothing rendered), with `attributes` changed. */
export function buildProject(attributes: Record<string, unknown> = {}) {
  return {
    id: 'p1',
    type: 'project',
    attributes: {
      name: 'Brackets',
      description: null,
      user_id: 'u1',
      folder_id: 'f1',
      output_folder_id: 'o1',
      settings: { category_id: 'mechanical' },
      inputs: 1,
      outputs: 0,
      renders: { queued: 0, rendering: 0, done: 0, failed: 0 },
      cover: null,
      outdated_inputs: 0,
      created_at: '2026-12-04T14:00:00.000Z',
      updated_at: '2026-12-04T14:00:00.000Z',
      ...attributes,
    },
  };
}
