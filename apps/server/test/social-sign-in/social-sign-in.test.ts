import {
  LinkedSocialAccounts,
  SocialRedirectAnswer,
  TwoFactorSetup,
  type SocialProviderConfig,
} from '@atelier/contracts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../src/lib/tokens';
import { SocialSignInRepository } from '../../src/modules/social-sign-in/social-sign-in.repository';
import { SESSION_COOKIE } from '../../src/plugins/session.plugin';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { DEFAULT_PASSWORD, createUser, signedInAgent } from '../support/factories';
import { createTestApp, type TestApp } from '../support/test-app';
import { startOidcPeer, type OidcPeer } from './oidc-peer';

const APP_URL = 'http://atelier.test';
const CALLBACK = `${APP_URL}/socialite/peer/callback`;

describeEachDatabase('social sign-in through a real OpenID Connect provider', (database) => {
  let peer: OidcPeer;
  let t: TestApp;
  let time = Date.now();

  // Each test uses its own people, so the suite's order does not matter.
  const accounts = {
    newcomer: { email: 'newcomer@example.test', email_verified: true, name: 'Nora Newcomer' },
    member: { email: 'member@example.test', email_verified: true, name: 'Mia Member' },
    claimant: { email: 'claimed@example.test', email_verified: false, name: 'Claire Claimant' },
    stranger: { email: 'unverified-new@example.test', email_verified: false, name: 'Sam Stranger' },
    replayer: { email: 'replayer@example.test', email_verified: true, name: 'Ray Replayer' },
    latecomer: { email: 'latecomer@example.test', email_verified: true, name: 'Lee Latecomer' },
    guarded: { email: 'guarded@example.test', email_verified: true, name: 'Gus Guarded' },
    linker: { email: 'someone-else@example.test', email_verified: false, name: 'Lin Linker' },
    closed: { email: 'closed@example.test', email_verified: true, name: 'Cole Closed' },
    preregistered: { email: 'prereg@example.test', email_verified: true, name: 'Pia Preregistered' },
    interrupted: { email: 'interrupted@example.test', email_verified: true, name: 'Ines Interrupted' },
  };

  beforeAll(async () => {
    peer = await startOidcPeer(accounts, [CALLBACK]);
    const provider: SocialProviderConfig = {
      name: 'peer',
      kind: 'oidc',
      label: 'Peer ID',
      issuer: peer.issuer,
      client_id: peer.clientId,
      client_secret: peer.clientSecret,
      enabled: true,
    };
    t = await createTestApp({
      database,
      clock: () => new Date(time),
      settings: { social_providers: [provider], registration: true },
    });
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
  });

  /** Asks the app for the provider's URL, as the sign-in buttons do. */
  async function redirectUrl(agent: TestAgent, intent?: 'link'): Promise<URL> {
    const answer = await agent.get(`/api/socialite/peer/redirect${intent ? `?intent=${intent}` : ''}`);
    expect(answer.statusCode).toBe(200);
    return new URL(SocialRedirectAnswer.parse(answer.json()).data.url);
  }

  /** The whole round trip: the app's redirect, the person at the provider, the app's callback. */
  async function roundTrip(agent: TestAgent, accountId: string, intent?: 'link') {
    const back = await peer.signInAt((await redirectUrl(agent, intent)).href, accountId);
    expect(back.href.startsWith(CALLBACK)).toBe(true);
    return { back, answer: await agent.get(back.pathname + back.search) };
  }

  const userCount = async () =>
    Number(
      (
        await t.deps.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('sends the person to the provider with state, nonce and an S256 PKCE challenge', async () => {
    const url = await redirectUrl(new TestAgent(t.app));
    expect(url.origin).toBe(peer.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  });

  it('creates an account with a verified e-mail for a new person and signs them in', async () => {
    const agent = new TestAgent(t.app);
    const { answer } = await roundTrip(agent, 'newcomer');
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe('/sign-in');
    const me = (await agent.get('/api/user')).json();
    expect(me.data.attributes.email).toBe('newcomer@example.test');
    expect(me.data.attributes.name).toBe('Nora Newcomer');
    const user = await t.deps.users.findByEmail('newcomer@example.test');
    expect(user?.email_verified_at).toBeTruthy();

    // The account has no password anyone knows: its only link cannot go.
    const linked = LinkedSocialAccounts.parse((await agent.get('/api/user/social-accounts')).json());
    expect(linked).toMatchObject({ data: [{ provider: 'peer', kind: 'oidc', label: 'Peer ID' }] });
    expect(linked.meta.password_set).toBe(false);
    expect((await agent.delete('/api/user/social-accounts/peer')).statusCode).toBe(422);

    // Next time the same identity signs in to the same account.
    const again = new TestAgent(t.app);
    expect((await roundTrip(again, 'newcomer')).answer.headers.location).toBe('/sign-in');
    expect((await again.get('/api/user')).json().data.id).toBe(user!.id);
  });

  it('makes the account, its generated password and its link together, or none of them', async () => {
    // The link fails to be stored after the account and its generated password were written.
    const link = vi
      .spyOn(SocialSignInRepository.prototype, 'insertAccount')
      .mockRejectedValueOnce(new Error('link store down'));
    try {
      const agent = new TestAgent(t.app);
      const { answer } = await roundTrip(agent, 'interrupted');
      expect(answer.statusCode).toBe(500);
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
    } finally {
      link.mockRestore();
    }
    // No half-made account: none whose only way in (the link) is missing and whose generated
    // password is not known as such (its owner could unlink the provider and be locked out).
    expect(await t.deps.users.findByEmail('interrupted@example.test')).toBeUndefined();
    const generated = await t.deps.database.db
      .selectFrom('social_generated_passwords')
      .innerJoin('users', 'users.id', 'social_generated_passwords.user_id')
      .where('users.email', '=', 'interrupted@example.test')
      .select('user_id')
      .execute();
    expect(generated).toEqual([]);

    // Trying again makes the whole account.
    const agent = new TestAgent(t.app);
    expect((await roundTrip(agent, 'interrupted')).answer.headers.location).toBe('/sign-in');
    const linked = LinkedSocialAccounts.parse((await agent.get('/api/user/social-accounts')).json());
    expect(linked).toMatchObject({ data: [{ provider: 'peer' }], meta: { password_set: false } });
  });

  it('joins an existing account when the provider verified its e-mail', async () => {
    const { user } = await createUser(t.deps, { email: 'member@example.test' });
    const before = await userCount();
    const agent = new TestAgent(t.app);
    expect((await roundTrip(agent, 'member')).answer.headers.location).toBe('/sign-in');
    expect((await agent.get('/api/user')).json().data.id).toBe(user.id);
    expect(await userCount()).toBe(before);
  });

  it('refuses to join an account by an e-mail the provider did not verify, and creates none by it', async () => {
    await createUser(t.deps, { email: 'claimed@example.test' });
    const before = await userCount();
    for (const person of ['claimant', 'stranger']) {
      const agent = new TestAgent(t.app);
      const { answer } = await roundTrip(agent, person);
      expect(answer.headers.location).toBe('/sign-in?social_error=email_unverified');
      expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
      expect((await agent.get('/api/user')).statusCode).toBe(401);
    }
    expect(await userCount()).toBe(before);
    expect(await t.deps.users.findByEmail('unverified-new@example.test')).toBeUndefined();
  });

  it('joins no account registered here by its address alone, even where the instance verifies no address', async () => {
    // Someone registers another person's address first (no proof asked), and keeps its password.
    const registered = await new TestAgent(t.app).post('/api/register', {
      name: 'Not Pia',
      email: 'prereg@example.test',
      password: 'not pia at all',
      password_confirmation: 'not pia at all',
    });
    expect(registered.statusCode).toBe(201);
    const agent = new TestAgent(t.app);
    const { answer } = await roundTrip(agent, 'preregistered');
    expect(answer.headers.location).toBe('/sign-in?social_error=link_required');
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    const links = await t.deps.database.db.selectFrom('social_accounts').select('user_id').execute();
    expect(links.map((link) => link.user_id)).not.toContain(registered.json().data.id);
  });

  it('refuses a forged state, a replayed one, an expired one and one from another browser', async () => {
    const before = await userCount();
    const agent = new TestAgent(t.app);

    const forged = await agent.get('/socialite/peer/callback?code=abc&state=forged-state');
    expect(forged.headers.location).toBe('/sign-in?social_error=state');

    const { back, answer } = await roundTrip(agent, 'replayer');
    expect(answer.headers.location).toBe('/sign-in');
    const replayed = await new TestAgent(t.app).get(back.pathname + back.search);
    expect(replayed.headers.location).toBe('/sign-in?social_error=state');
    const replayedHere = await agent.get(back.pathname + back.search);
    expect(replayedHere.headers.location).toBe('/sign-in?social_error=state');

    // The provider's answer arriving after the ten minutes the round trip may take.
    const slow = new TestAgent(t.app);
    const url = await redirectUrl(slow);
    const late = await peer.signInAt(url.href, 'latecomer');
    time += 11 * 60_000;
    expect((await slow.get(late.pathname + late.search)).headers.location).toBe(
      '/sign-in?social_error=state',
    );

    // A callback carried to another browser (login CSRF) lacks the cookie binding it.
    const started = new TestAgent(t.app);
    const carried = await peer.signInAt((await redirectUrl(started)).href, 'latecomer');
    const victim = new TestAgent(t.app);
    expect((await victim.get(carried.pathname + carried.search)).headers.location).toBe(
      '/sign-in?social_error=state',
    );
    expect(victim.cookie(SESSION_COOKIE)).toBeUndefined();

    expect(await userCount()).toBe(before + 1); // the replayer only
    expect(await t.deps.users.findByEmail('latecomer@example.test')).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const agent = new TestAgent(t.app);
    const url = await redirectUrl(agent);
    // The stored round trip now expects another nonce than the one the provider puts in the ID token.
    await t.deps.database.db
      .updateTable('social_sign_in_requests')
      .set({ nonce: 'another-nonce' })
      .where('id', '=', hashToken(url.searchParams.get('state')!))
      .execute();
    const back = await peer.signInAt(url.href, 'newcomer');
    const answer = await agent.get(back.pathname + back.search);
    expect(answer.headers.location).toBe('/sign-in?social_error=provider');
    expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('still asks a user with two-factor authentication for the second factor', async () => {
    // The user turns two-factor sign-in on through the API, as on the profile page.
    const { user } = await createUser(t.deps, { email: 'guarded@example.test' });
    const { agent: owner } = await signedInAgent(t.app, user);
    const codeAt = (secret: string, at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
    const setup = await owner.post('/api/user/two-factor-authentication', { password: DEFAULT_PASSWORD });
    const { secret } = TwoFactorSetup.parse(setup.json());
    const confirmed = await owner.post('/api/user/confirmed-two-factor-authentication', {
      code: codeAt(secret, time),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    time += 30_000;

    const agent = new TestAgent(t.app);
    const { answer } = await roundTrip(agent, 'guarded');
    expect(answer.headers.location).toBe('/sign-in?two_factor=1');
    expect(agent.cookie(SESSION_COOKIE)).toBeUndefined();
    expect((await agent.get('/api/user')).statusCode).toBe(401);

    // The sign-in page's challenge step finishes it with a code.
    const challenge = await agent.post('/api/two-factor-challenge', { code: codeAt(secret, time) });
    expect(challenge.statusCode, challenge.body).toBe(200);
    expect((await agent.get('/api/user')).json().data.id).toBe(user.id);
  });

  it('links a provider to the signed-in user from the profile, and unlinks it', async () => {
    // The provider's address is not verified, and not the user's: linking needs neither.
    const { agent, user } = await signedInAgent(t.app);
    const { answer } = await roundTrip(agent, 'linker', 'link');
    expect(answer.headers.location).toBe('/user/profile?linked=peer');
    const linked = LinkedSocialAccounts.parse((await agent.get('/api/user/social-accounts')).json());
    expect(linked.data).toMatchObject([{ provider: 'peer', email: 'someone-else@example.test' }]);
    expect(linked.meta.password_set).toBe(true);

    // The identity now signs in to that user.
    const elsewhere = new TestAgent(t.app);
    await roundTrip(elsewhere, 'linker');
    expect((await elsewhere.get('/api/user')).json().data.id).toBe(user.id);

    // Another user cannot take the same identity.
    const other = await signedInAgent(t.app);
    const taken = await roundTrip(other.agent, 'linker', 'link');
    expect(taken.answer.headers.location).toBe('/user/profile?social_error=already_linked');

    // Linking needs a session; unlinking is for one's own links.
    expect((await new TestAgent(t.app).get('/api/socialite/peer/redirect?intent=link')).statusCode).toBe(401);
    expect((await other.agent.delete('/api/user/social-accounts/peer')).statusCode).toBe(404);
    expect((await agent.delete('/api/user/social-accounts/peer')).statusCode).toBe(204);
    expect(LinkedSocialAccounts.parse((await agent.get('/api/user/social-accounts')).json()).data).toEqual(
      [],
    );
  });

  it('creates no account when registration is closed', async () => {
    await t.deps.settings.set({ registration: false });
    try {
      const agent = new TestAgent(t.app);
      const { answer } = await roundTrip(agent, 'closed');
      expect(answer.headers.location).toBe('/sign-in?social_error=registration_closed');
      expect(await t.deps.users.findByEmail('closed@example.test')).toBeUndefined();
    } finally {
      await t.deps.settings.set({ registration: true });
    }
  });

  it('answers 404 for a provider that is not configured or not enabled', async () => {
    const agent = new TestAgent(t.app);
    expect((await agent.get('/api/socialite/nobody/redirect')).statusCode).toBe(404);
    expect((await agent.get('/socialite/nobody/callback?code=a&state=b')).statusCode).toBe(404);
    const [peerConfig] = await t.deps.settings.get('social_providers');
    await t.deps.settings.set({ social_providers: [{ ...peerConfig!, enabled: false }] });
    try {
      expect((await agent.get('/api/socialite/peer/redirect')).statusCode).toBe(404);
    } finally {
      await t.deps.settings.set({ social_providers: [peerConfig!] });
    }
  });
});

describe('social sign-in: the redirect and callback are throttled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '600' } });
  });
  afterAll(() => t.close());

  it('answers 429 after the token-testing rate (a six-hundredth of the global ceiling)', async () => {
    const agent = new TestAgent(t.app);
    expect((await agent.get('/socialite/peer/callback?state=x')).statusCode).toBe(404);
    expect((await agent.get('/socialite/peer/callback?state=x')).statusCode).toBe(429);
    expect((await agent.get('/api/socialite/peer/redirect')).statusCode).toBe(404);
    expect((await agent.get('/api/socialite/peer/redirect')).statusCode).toBe(429);
  });
});
