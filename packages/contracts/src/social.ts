import { z } from 'zod';

/**
 * Social sign-in providers: any OpenID Connect issuer the admin names, or a preset. Google is
 * OpenID Connect with a known issuer; GitHub and Facebook are plain OAuth 2 whose e-mail comes from
 * their API.
 */
export const SOCIAL_PROVIDER_KINDS = ['oidc', 'google', 'github', 'facebook'] as const;
export const SocialProviderKind = z.enum(SOCIAL_PROVIDER_KINDS);
export type SocialProviderKind = z.infer<typeof SocialProviderKind>;

/** The `{provider}` of /api/socialite/{provider}/redirect: lower-case letters, digits and dashes. */
export const SocialProviderName = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'validation.social_provider_name');

const EndpointUrl = z.string().trim().url('validation.url').max(500);

/**
 * One provider as the `social_providers` setting stores it. `issuer` is required for `oidc` and
 * overrides Google's; the `*_endpoint` fields override the GitHub and Facebook presets' addresses
 * (GitHub Enterprise, or a local peer in tests) and are refused for the OpenID Connect kinds, which
 * learn theirs by discovery.
 */
const SocialProviderFields = z.object({
  name: SocialProviderName,
  kind: SocialProviderKind,
  label: z.string().trim().min(1, 'validation.required').max(60).optional(),
  issuer: EndpointUrl.optional(),
  authorization_endpoint: EndpointUrl.optional(),
  token_endpoint: EndpointUrl.optional(),
  /** API root the e-mail is read from: https://api.github.com, https://graph.facebook.com. */
  api_endpoint: EndpointUrl.optional(),
  client_id: z.string().trim().min(1, 'validation.required').max(500),
  client_secret: z.string().min(1, 'validation.required').max(2000),
  enabled: z.boolean(),
});

function checkKindFields(
  p: {
    kind: SocialProviderKind;
    issuer?: string;
    authorization_endpoint?: string;
    token_endpoint?: string;
    api_endpoint?: string;
  },
  ctx: z.RefinementCtx,
) {
  if (p.kind === 'oidc' && !p.issuer) {
    ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['issuer'] });
  }
  if (p.kind === 'github' || p.kind === 'facebook') {
    if (p.issuer) ctx.addIssue({ code: 'custom', message: 'validation.social_no_issuer', path: ['issuer'] });
    return;
  }
  for (const field of ['authorization_endpoint', 'token_endpoint', 'api_endpoint'] as const) {
    if (p[field]) ctx.addIssue({ code: 'custom', message: 'validation.social_discovered', path: [field] });
  }
}

export const SocialProviderConfig = SocialProviderFields.superRefine(checkKindFields);
export type SocialProviderConfig = z.infer<typeof SocialProviderConfig>;

/** The whole `social_providers` setting: names are unique, as they are the URLs' `{provider}`. */
export const SocialProvidersSetting = z
  .array(SocialProviderConfig)
  .max(20)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((p, i) => {
      if (seen.has(p.name)) {
        ctx.addIssue({ code: 'custom', message: 'validation.social_provider_taken', path: [i, 'name'] });
      }
      seen.add(p.name);
    });
  });
export type SocialProvidersSetting = z.infer<typeof SocialProvidersSetting>;

/**
 * What the admin settings send: a provider's secret may be left out (or null) to keep the one stored
 * under the same name, since the admin never reads secrets back.
 */
export const SocialProviderConfigInput = SocialProviderFields.extend({
  client_secret: z.string().max(2000).nullish(),
}).superRefine(checkKindFields);
export type SocialProviderConfigInput = z.infer<typeof SocialProviderConfigInput>;

/** A provider as the admin settings read it back: the secret only as `client_secret_set`. */
export type SocialProviderAdminView = Omit<SocialProviderConfig, 'client_secret'> & {
  client_secret: null;
  client_secret_set: boolean;
};

/** GET /api/config `socialProviders`: what a sign-in button needs, nothing more. */
export const PublicSocialProvider = z.object({
  name: SocialProviderName,
  kind: SocialProviderKind,
  label: z.string().nullable(),
});
export type PublicSocialProvider = z.infer<typeof PublicSocialProvider>;

/** GET /api/user/social-accounts: the provider identities linked to the signed-in user. */
export const LinkedSocialAccount = z.object({
  provider: SocialProviderName,
  kind: SocialProviderKind.nullable(),
  label: z.string().nullable(),
  email: z.string().nullable(),
  created_at: z.string(),
});
export type LinkedSocialAccount = z.infer<typeof LinkedSocialAccount>;

/** GET /api/user/social-accounts; `password_set` false means the last link may not be removed. */
export const LinkedSocialAccounts = z.object({
  data: z.array(LinkedSocialAccount),
  meta: z.object({ password_set: z.boolean() }),
});
export type LinkedSocialAccounts = z.infer<typeof LinkedSocialAccounts>;

/** GET /api/socialite/{provider}/redirect: `intent=link` links the provider to the signed-in user. */
export const SocialRedirectQuery = z.object({ intent: z.enum(['sign_in', 'link']).default('sign_in') });
export const SocialRedirectAnswer = z.object({ data: z.object({ url: z.string() }) });
