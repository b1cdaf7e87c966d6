import type { SocialProviderConfig } from '@atelier/contracts';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { trimCharacters } from '../../lib/trim-characters';

/** Who the provider says signed in. `emailVerified` is true only when the provider vouches for it. */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** What the sign-in keeps between the redirect and the callback to prove they belong together. */
export interface RoundTripChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const OIDC_SCOPE = 'openid email profile';
const GOOGLE_ISSUER = 'https://accounts.google.com';

/** GitHub and Facebook speak OAuth 2 without OpenID Connect; their addresses, overridable per provider. */
const OAUTH2_PRESETS = {
  github: {
    authorization_endpoint: 'https://github.com/login/oauth/authorize',
    token_endpoint: 'https://github.com/login/oauth/access_token',
    api_endpoint: 'https://api.github.com',
    scope: 'read:user user:email',
  },
  facebook: {
    authorization_endpoint: 'https://www.facebook.com/v23.0/dialog/oauth',
    token_endpoint: 'https://graph.facebook.com/v23.0/oauth/access_token',
    api_endpoint: 'https://graph.facebook.com/v23.0',
    scope: 'email public_profile',
  },
} as const;

/**
 * Discovered metadata is kept this long, so a sign-in does not fetch it twice: process time, not the
 * app's clock, as it bounds a cache and decides no rule.
 */
const DISCOVERY_TTL_MS = 10 * 60_000;
const API_TIMEOUT_MS = 10_000;

const IdentityClaims = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // Some providers send the flag as a string.
  email_verified: z.union([z.boolean(), z.literal('true'), z.literal('false')]).optional(),
  name: z.string().optional(),
});
const GitHubUser = z.object({ id: z.number(), login: z.string(), name: z.string().nullish() });
const GitHubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));
const FacebookMe = z.object({ id: z.string(), name: z.string().optional(), email: z.string().optional() });

/**
 * Talks to one configured provider: builds the authorisation URL (PKCE S256, `state`, and `nonce`
 * for OpenID Connect) and turns the callback into the person's identity, with openid-client
 * checking the state, the code exchange and, for OpenID Connect, the ID token and its nonce.
 */
export class SocialProviderClient {
  private readonly configurations = new Map<string, { config: Promise<oidc.Configuration>; at: number }>();

  async authorizationUrl(provider: SocialProviderConfig, redirectUri: string, checks: RoundTripChecks) {
    const config = await this.configuration(provider);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: scopeOf(provider),
      state: checks.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      ...(isOpenIdConnect(provider) ? { nonce: checks.nonce } : {}),
    }).href;
  }

  /** `callbackUrl` is the address the provider sent the browser back to, query included. */
  async identity(
    provider: SocialProviderConfig,
    callbackUrl: URL,
    checks: RoundTripChecks,
  ): Promise<ProviderIdentity> {
    const config = await this.configuration(provider);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      pkceCodeVerifier: checks.codeVerifier,
      ...(isOpenIdConnect(provider) ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
    });
    if (provider.kind === 'github') return gitHubIdentity(provider, tokens.access_token);
    if (provider.kind === 'facebook') return facebookIdentity(provider, tokens.access_token);

    let claims = IdentityClaims.parse(tokens.claims());
    // Providers may keep the e-mail out of the ID token and answer it from the userinfo endpoint.
    if (!claims.email && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      claims = IdentityClaims.parse({ ...claims, ...info, sub: claims.sub });
    }
    return {
      subject: claims.sub,
      email: claims.email?.toLowerCase() ?? null,
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      name: claims.name ?? null,
    };
  }

  private configuration(provider: SocialProviderConfig): Promise<oidc.Configuration> {
    const key = JSON.stringify(provider);
    const cached = this.configurations.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = this.createConfiguration(provider);
    this.configurations.set(key, { config, at: Date.now() });
    config.catch(() => this.configurations.delete(key));
    return config;
  }

  private async createConfiguration(provider: SocialProviderConfig): Promise<oidc.Configuration> {
    // An admin may point at a provider on a private network over plain http; then openid-client must allow it.
    const insecure = (url: string) => url.startsWith('http://');
    if (provider.kind === 'oidc' || provider.kind === 'google') {
      const issuer = provider.issuer ?? GOOGLE_ISSUER;
      return oidc.discovery(
        new URL(issuer),
        provider.client_id,
        undefined,
        oidc.ClientSecretBasic(provider.client_secret),
        { execute: insecure(issuer) ? [oidc.allowInsecureRequests] : [], timeout: API_TIMEOUT_MS / 1000 },
      );
    }
    const endpoints = endpointsOf(provider, provider.kind);
    const config = new oidc.Configuration(
      {
        issuer: new URL(endpoints.authorization_endpoint).origin,
        authorization_endpoint: endpoints.authorization_endpoint,
        token_endpoint: endpoints.token_endpoint,
      },
      provider.client_id,
      undefined,
      oidc.ClientSecretPost(provider.client_secret),
    );
    config.timeout = API_TIMEOUT_MS / 1000;
    if (insecure(endpoints.authorization_endpoint) || insecure(endpoints.token_endpoint)) {
      oidc.allowInsecureRequests(config);
    }
    return config;
  }
}

function isOpenIdConnect(provider: SocialProviderConfig): boolean {
  return provider.kind === 'oidc' || provider.kind === 'google';
}

function scopeOf(provider: SocialProviderConfig): string {
  return provider.kind === 'github' || provider.kind === 'facebook'
    ? OAUTH2_PRESETS[provider.kind].scope
    : OIDC_SCOPE;
}

function endpointsOf(provider: SocialProviderConfig, kind: keyof typeof OAUTH2_PRESETS) {
  const preset = OAUTH2_PRESETS[kind];
  return {
    authorization_endpoint: provider.authorization_endpoint ?? preset.authorization_endpoint,
    token_endpoint: provider.token_endpoint ?? preset.token_endpoint,
    api_endpoint: trimCharacters(provider.api_endpoint ?? preset.api_endpoint, '/'),
  };
}

async function fetchJson(url: string, accessToken: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as unknown;
}

/** GitHub: the id from /user, the e-mail from /user/emails (the primary one, verified or not). */
async function gitHubIdentity(
  provider: SocialProviderConfig,
  accessToken: string,
): Promise<ProviderIdentity> {
  const api = endpointsOf(provider, 'github').api_endpoint;
  // GitHub refuses API calls without a User-Agent.
  const headers = { accept: 'application/vnd.github+json', 'user-agent': 'Atelier' };
  const user = GitHubUser.parse(await fetchJson(`${api}/user`, accessToken, headers));
  const emails = GitHubEmails.parse(await fetchJson(`${api}/user/emails`, accessToken, headers));
  const primary = emails.find((e) => e.primary);
  return {
    subject: String(user.id),
    email: primary?.email.toLowerCase() ?? null,
    emailVerified: primary?.verified ?? false,
    name: user.name || user.login,
  };
}

/**
 * Facebook: /me with the e-mail field. The Graph API does not say whether the address was
 * confirmed, so it never counts as verified: Facebook signs in accounts that linked it, and creates
 * or joins none by e-mail (docs/social-sign-in.md).
 */
async function facebookIdentity(
  provider: SocialProviderConfig,
  accessToken: string,
): Promise<ProviderIdentity> {
  const api = endpointsOf(provider, 'facebook').api_endpoint;
  const me = FacebookMe.parse(await fetchJson(`${api}/me?fields=id,name,email`, accessToken));
  return {
    subject: me.id,
    email: me.email?.toLowerCase() ?? null,
    emailVerified: false,
    name: me.name ?? null,
  };
}
