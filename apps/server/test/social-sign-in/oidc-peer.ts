import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface PeerAccount {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays the person at the provider: opens the authorisation URL, signs in as `accountId` and
   * consents through the provider's own interaction pages, and returns the URL the provider sends
   * the browser back to (the app's callback with `code` and `state`).
   */
  signInAt(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a loopback port, with the given accounts and one
 * confidential client allowed to come back to `redirectUris`.
 */
export async function startOidcPeer(
  accounts: Record<string, PeerAccount>,
  redirectUris: string[],
): Promise<OidcPeer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'atelier';
  const clientSecret = 'peer-client-secret';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => {
      const account = accounts[sub];
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    cookies: { keys: ['oidc-peer-cookie-key'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc peer:', error));
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    signInAt: (authorizationUrl, accountId) => browse(authorizationUrl, accountId),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /** Follows the provider's redirects with a cookie jar, answering its login and consent forms. */
  async function browse(start: string, accountId: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(start);
    let form: Record<string, string> | undefined;
    for (let step = 0; step < 20; step++) {
      if (!url.href.startsWith(issuer)) return url;
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const separator = pair!.indexOf('=');
        jar.set(pair!.slice(0, separator), pair!.slice(separator + 1));
      }
      form = undefined;
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url);
        continue;
      }
      const page = await response.text();
      if (page.includes('name="prompt" value="login"'))
        form = { prompt: 'login', login: accountId, password: 'x' };
      else if (page.includes('name="prompt" value="consent"')) form = { prompt: 'consent' };
      else throw new Error(`unexpected provider page ${response.status}: ${page.slice(0, 300)}`);
    }
    throw new Error('the provider did not send the browser back');
  }
}
