import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface PeerAccount {
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a loopback port for the journeys: its own
 * development login page (any login, any password) and consent page, the given accounts, and one
 * client that may come back to `redirectUri`.
 */
export async function startOidcPeer(accounts: Record<string, PeerAccount>, redirectUri: string) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = { client_id: 'atelier-e2e', client_secret: 'e2e-peer-secret' };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...client,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => {
      const account = accounts[sub];
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    cookies: { keys: ['e2e-peer-cookie-key'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    ...client,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
