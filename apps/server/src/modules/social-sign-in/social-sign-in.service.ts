import {
  type LinkedSocialAccounts,
  type SocialProviderConfig,
  type SocialSignInError,
  withoutHiddenControls,
} from '@atelier/contracts';
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { hashToken, randomToken } from '../../lib/tokens';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';
import type { ProviderIdentity, SocialProviderClient } from './social-provider.client';
import type { SocialSignInRepository } from './social-sign-in.repository';

export interface SocialSignInDeps {
  repository: SocialSignInRepository;
  client: SocialProviderClient;
  settings: SettingsService;
  users: UsersService;
  /** An account a provider creates is written through the users module and this one at once. */
  units: Pick<UnitOfWork, 'transaction'>;
  appUrl: string;
  now: () => Date;
  /** Called once an account a provider created exists with its verified address. */
  onAccountReady: (user: UserRow) => Promise<void>;
}

/** What the callback comes to: whom to sign in, a link made, or why it refused. */
export type CallbackOutcome =
  | { result: 'sign_in'; user: UserRow }
  | { result: 'linked'; provider: string }
  | { result: 'refused'; error: SocialSignInError; linking: boolean };

export interface CallbackInput {
  provider: string;
  /** The query the provider sent the browser back with. */
  query: Record<string, string>;
  /** The value of the cookie set when this browser asked for the redirect. */
  browserToken: string | undefined;
  /** Who the browser is signed in as now (a link must come back to the same user). */
  sessionUser: UserRow | null;
}

const NAME_MAX = 120;
/** Time for the person to sign in at the provider and come back. */
const STATE_TTL_MINUTES = 10;

/**
 * Signing in and linking through a provider. Each round trip is stored server side under the
 * SHA-256 of its `state` and bound to the browser by a cookie, expires after a few minutes and is
 * used once. An existing account is joined by e-mail only when the provider vouches for the
 * address; an account is created only then too, so nobody can pre-claim another's address.
 */
export class SocialSignInService {
  constructor(private readonly deps: SocialSignInDeps) {}

  /** The provider's authorisation URL, and the cookie value binding the round trip to this browser. */
  async begin(name: string, linkingUser: UserRow | null): Promise<{ url: string; browserToken: string }> {
    const provider = await this.enabledProvider(name);
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const browserToken = randomToken();
    const now = this.deps.now();
    await this.deps.repository.insertRequest({
      id: hashToken(checks.state),
      provider: provider.name,
      user_id: linkingUser?.id ?? null,
      browser_hash: hashToken(browserToken),
      code_verifier: checks.codeVerifier,
      nonce: checks.nonce,
      expires_at: new Date(now.getTime() + STATE_TTL_MINUTES * 60_000).toISOString(),
      created_at: now.toISOString(),
    });
    const url = await this.deps.client.authorizationUrl(provider, this.callbackUrl(provider.name), checks);
    return { url, browserToken };
  }

  async complete(input: CallbackInput): Promise<CallbackOutcome> {
    const provider = await this.enabledProvider(input.provider);
    const state = input.query.state;
    const request = state
      ? await this.deps.repository.takeRequest(hashToken(state), this.deps.now().toISOString())
      : undefined;
    const linking = Boolean(request?.user_id);
    const refused = (error: SocialSignInError): CallbackOutcome => ({ result: 'refused', error, linking });
    if (
      !state ||
      !request ||
      request.provider !== provider.name ||
      !input.browserToken ||
      hashToken(input.browserToken) !== request.browser_hash
    )
      return refused('state');

    let identity: ProviderIdentity;
    try {
      const callbackUrl = new URL(this.callbackUrl(provider.name));
      for (const [key, value] of Object.entries(input.query)) callbackUrl.searchParams.set(key, value);
      identity = await this.deps.client.identity(provider, callbackUrl, {
        state,
        nonce: request.nonce,
        codeVerifier: request.code_verifier,
      });
    } catch {
      return refused('provider');
    }

    if (request.user_id) {
      if (input.sessionUser?.id !== request.user_id) return refused('state');
      return (await this.link(input.sessionUser, provider.name, identity))
        ? { result: 'linked', provider: provider.name }
        : refused('already_linked');
    }
    return this.signIn(provider.name, identity, refused);
  }

  /** The signed-in user's linked providers, and whether they have a password to fall back on. */
  async linkedAccounts(user: UserRow): Promise<LinkedSocialAccounts> {
    const providers = new Map((await this.deps.settings.get('social_providers')).map((p) => [p.name, p]));
    const accounts = await this.deps.repository.accountsOf(user.id);
    return {
      data: accounts.map((account) => {
        const provider = providers.get(account.provider);
        return {
          provider: account.provider,
          kind: provider?.kind ?? null,
          label: provider?.label ?? null,
          email: account.email,
          created_at: new Date(account.created_at).toISOString(),
        };
      }),
      meta: { password_set: await this.passwordSet(user) },
    };
  }

  /**
   * Removes a link, but never the last way in: an account a provider created keeps a generated
   * password nobody knows until its owner sets one through "forgotten password".
   */
  async unlink(user: UserRow, provider: string): Promise<void> {
    const accounts = await this.deps.repository.accountsOf(user.id);
    if (!accounts.some((a) => a.provider === provider)) throw new AppError('not_found', 'errors.not_found');
    if (accounts.length === 1 && !(await this.passwordSet(user)))
      throw AppError.invalid('provider', 'social.last_sign_in_method');
    await this.deps.repository.deleteAccount(user.id, provider);
  }

  private async signIn(
    provider: string,
    identity: ProviderIdentity,
    refused: (error: SocialSignInError) => CallbackOutcome,
  ): Promise<CallbackOutcome> {
    const linked = await this.deps.repository.findAccount(provider, identity.subject);
    const linkedUser = linked && (await this.deps.users.findById(linked.user_id));
    if (linkedUser) return { result: 'sign_in', user: linkedUser };

    if (!identity.email) return refused('email_missing');
    if (!identity.emailVerified) return refused('email_unverified');
    const existing = await this.deps.users.findByEmail(identity.email);
    if (existing) {
      // Whoever registered an address they never confirmed may know its password: its owner links from there.
      if (!existing.email_verified_at) return refused('link_required');
      return (await this.link(existing, provider, identity))
        ? { result: 'sign_in', user: existing }
        : refused('already_linked');
    }

    if (!(await this.deps.settings.get('registration'))) return refused('registration_closed');
    const user = await this.createLinkedAccount(identity.email, provider, identity);
    return user ? { result: 'sign_in', user } : refused('already_linked');
  }

  /**
   * The account, its generated password, its link and what waited for its address, as one unit of
   * work: a failure between them would leave an account whose only way in is missing, or whose
   * unknown password counts as one its owner set (so the last link could go). Undefined, and no
   * account, when the identity was linked meanwhile by another sign-in.
   */
  private async createLinkedAccount(
    email: string,
    provider: string,
    identity: ProviderIdentity,
  ): Promise<UserRow | undefined> {
    const alreadyLinked = new Error('already linked');
    try {
      return await this.deps.units.transaction(async () => {
        const user = await this.createAccount(email, identity);
        if (!(await this.link(user, provider, identity))) throw alreadyLinked;
        await this.deps.onAccountReady(user);
        return user;
      });
    } catch (error) {
      if (error === alreadyLinked) return undefined;
      throw error;
    }
  }

  private async createAccount(email: string, identity: ProviderIdentity): Promise<UserRow> {
    // The provider's name is shown to others like one typed here, so it loses the same hidden controls.
    const name = (withoutHiddenControls(identity.name ?? '').trim() || email.split('@')[0]!).slice(
      0,
      NAME_MAX,
    );
    const user = await this.deps.users.create({ name, email, password: randomToken(), emailVerified: true });
    await this.deps.repository.insertGeneratedPassword(user.id, user.password_hash);
    return user;
  }

  /** False when the identity is another user's, or the user already has another of this provider. */
  private async link(user: UserRow, provider: string, identity: ProviderIdentity): Promise<boolean> {
    const current = await this.deps.repository.findAccount(provider, identity.subject);
    if (current) return current.user_id === user.id;
    try {
      await this.deps.repository.insertAccount({
        id: randomUUID(),
        user_id: user.id,
        provider,
        subject: identity.subject,
        email: identity.email,
        created_at: this.deps.now().toISOString(),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  private async passwordSet(user: UserRow): Promise<boolean> {
    return (await this.deps.repository.generatedPassword(user.id)) !== user.password_hash;
  }

  private async enabledProvider(name: string): Promise<SocialProviderConfig> {
    const provider = (await this.deps.settings.get('social_providers')).find((p) => p.name === name);
    if (!provider?.enabled) throw new AppError('not_found', 'errors.not_found');
    return provider;
  }

  private callbackUrl(provider: string): string {
    return `${this.deps.appUrl}/socialite/${encodeURIComponent(provider)}/callback`;
  }
}
