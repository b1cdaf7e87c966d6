import { SocialRedirectAnswer, type SocialProviderConfig } from '@atelier/contracts';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestAgent } from '../support/agent';
import { describeEachDatabase } from '../support/each-database';
import { createTestApp, type TestApp } from '../support/test-app';

interface GitHubPerson {
  id: number;
  login: string;
  name?: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/**
 * GitHub cannot be reached from the tests, so this local HTTP server plays its OAuth 2 and REST
 * API: /login/oauth/authorize approves at once as the person named by `login_hint`,
 * /login/oauth/access_token checks the client secret and the PKCE verifier, /user and /user/emails
 * answer for the token's person, the way github.com and api.github.com do.
 */
async function startGitHubPeer(people: GitHubPerson[]) {
  const codes = new Map<string, { person: GitHubPerson; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, GitHubPerson>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://peer');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const person = people.find((p) => p.login === url.searchParams.get('login_hint')) ?? people[0]!;
      const code = randomBytes(8).toString('hex');
      const redirectUri = url.searchParams.get('redirect_uri')!;
      codes.set(code, { person, challenge: url.searchParams.get('code_challenge')!, redirectUri });
      const back = new URL(redirectUri);
      back.search = new URLSearchParams({ code, state: url.searchParams.get('state')! }).toString();
      return res.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        !grant ||
        form.get('client_secret') !== 'gh-secret' ||
        challenge !== grant.challenge ||
        form.get('redirect_uri') !== grant.redirectUri
      )
        return json(400, { error: 'bad_verification_code' });
      const token = randomBytes(8).toString('hex');
      tokens.set(token, grant.person);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const person = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!person || !req.headers['user-agent']) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/api/user')
      return json(200, { id: person.id, login: person.login, name: person.name ?? null });
    if (url.pathname === '/api/user/emails') return json(200, person.emails);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachDatabase('social sign-in with the GitHub preset (OAuth 2, e-mail from its API)', (database) => {
  let peer: Awaited<ReturnType<typeof startGitHubPeer>>;
  let t: TestApp;

  beforeAll(async () => {
    peer = await startGitHubPeer([
      {
        id: 101,
        login: 'octo-verified',
        emails: [
          { email: 'old@example.test', primary: false, verified: true },
          { email: 'Octo@Example.test', primary: true, verified: true },
        ],
      },
      {
        id: 102,
        login: 'octo-unverified',
        emails: [{ email: 'unconfirmed@example.test', primary: true, verified: false }],
      },
      {
        id: 103,
        login: 'octo-bidi',
        name: 'Octo\u202egnp.exe\u0007 Cat',
        emails: [{ email: 'bidi@example.test', primary: true, verified: true }],
      },
    ]);
    const github: SocialProviderConfig = {
      name: 'github',
      kind: 'github',
      client_id: 'gh-client',
      client_secret: 'gh-secret',
      // The preset's addresses, pointed at the local peer through the provider's own settings.
      authorization_endpoint: `${peer.origin}/login/oauth/authorize`,
      token_endpoint: `${peer.origin}/login/oauth/access_token`,
      api_endpoint: `${peer.origin}/api`,
      enabled: true,
    };
    t = await createTestApp({ database, settings: { social_providers: [github] } });
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
  });

  async function signInAs(login: string) {
    const agent = new TestAgent(t.app);
    const { data } = SocialRedirectAnswer.parse((await agent.get('/api/socialite/github/redirect')).json());
    const url = new URL(data.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('read:user user:email');
    url.searchParams.set('login_hint', login);
    const approved = await fetch(url, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    return { agent, answer: await agent.get(back.pathname + back.search) };
  }

  it('creates the account from the primary verified e-mail and signs in', async () => {
    const { agent, answer } = await signInAs('octo-verified');
    expect(answer.headers.location).toBe('/sign-in');
    const me = (await agent.get('/api/user')).json();
    expect(me.data.attributes.email).toBe('octo@example.test');
    expect(me.data.attributes.name).toBe('octo-verified');
  });

  it('takes the name GitHub gives without its controls and direction overrides', async () => {
    const { agent } = await signInAs('octo-bidi');
    expect((await agent.get('/api/user')).json().data.attributes.name).toBe('Octognp.exe Cat');
  });

  it('refuses a primary e-mail GitHub has not verified', async () => {
    const { agent, answer } = await signInAs('octo-unverified');
    expect(answer.headers.location).toBe('/sign-in?social_error=email_unverified');
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    expect(await t.deps.users.findByEmail('unconfirmed@example.test')).toBeUndefined();
  });
});
