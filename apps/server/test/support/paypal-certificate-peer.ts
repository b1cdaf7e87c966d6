import { sign, type KeyObject } from 'node:crypto';
import { Agent, createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { crc32 } from 'node:zlib';
import { buildCertificate, type TestCertificate } from './test-certificates';

/**
 * A real local HTTPS server standing in for PayPal's certificate host: a test CA's certificate for
 * api.paypal.com, serving webhook signing certificates at /v1/notifications/certs/{name}. The
 * provider reaches it through `agent()`, which dials the peer whatever name is asked for and
 * trusts the test CA, so the provider's paypal.com host check stays as strict as in production.
 *
 * Served: CERT-good (signing certificate and the CA), CERT-leaf-only, CERT-expired (valid in 2025
 * only), CERT-broken-chain (followed by an unrelated CA), CERT-garbage (a PEM that is no
 * certificate), CERT-huge (200 KiB), CERT-slow (never answers), CERT-cut (drops the connection
 * halfway); anything else is 404.
 */
export interface PayPalCertificatePeer {
  ca: TestCertificate;
  /** Valid through 2026 (the signing certificate the events are signed with). */
  signing: TestCertificate;
  /** A key PayPal never used. */
  stranger: TestCertificate;
  /** Requests per path. */
  hits: Map<string, number>;
  total(): number;
  /** An agent that dials this peer for any name; trusts the test CA unless told not to. */
  agent(options?: { trustTestCa?: boolean }): Agent;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
export const CERTIFICATE_PATH = '/v1/notifications/certs/';

export async function startPayPalCertificatePeer(): Promise<PayPalCertificatePeer> {
  const valid = { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2027-01-01T00:00:00Z') };
  const ca = buildCertificate({ commonName: 'Atelier Test CA', ca: true, ...valid });
  const signing = buildCertificate({
    commonName: 'messageverificationcerts.paypal.com',
    issuer: ca,
    ...valid,
  });
  const expired = buildCertificate({
    commonName: 'messageverificationcerts.paypal.com',
    issuer: ca,
    key: signing.key,
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2026-01-01T00:00:00Z'),
  });
  const stranger = buildCertificate({ commonName: 'Someone Else CA', ca: true, ...valid });
  const tls = buildCertificate({
    commonName: 'api.paypal.com',
    dnsNames: ['api.paypal.com', 'api.sandbox.paypal.com', 'paypal.com'],
    // The TLS handshake is checked against the real time, not a test's injected clock.
    notBefore: new Date(Date.now() - HOUR),
    notAfter: new Date(Date.now() + 24 * HOUR),
    issuer: ca,
  });

  const hits = new Map<string, number>();
  const served: Record<string, string> = {
    'CERT-good': signing.pem + ca.pem,
    'CERT-leaf-only': signing.pem,
    'CERT-expired': expired.pem + ca.pem,
    'CERT-broken-chain': signing.pem + stranger.pem,
    'CERT-garbage': '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
    'CERT-huge': 'A'.repeat(200 * 1024),
  };
  const sockets = new Set<Socket>();
  const server = createServer(
    { key: tls.key.export({ type: 'pkcs8', format: 'pem' }), cert: tls.pem },
    (request, response) => {
      const path = request.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const name = path.startsWith(CERTIFICATE_PATH) ? path.slice(CERTIFICATE_PATH.length) : '';
      if (name === 'CERT-slow') return; // never answers
      if (name === 'CERT-cut') {
        // Half a certificate, then the connection drops.
        response.writeHead(200, { 'content-length': String(signing.pem.length) });
        response.write(signing.pem.slice(0, 200), () => response.destroy());
        return;
      }
      const pem = served[name];
      if (pem === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(pem);
    },
  );
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agents: Agent[] = [];

  return {
    ca,
    signing,
    stranger,
    hits,
    total: () => [...hits.values()].reduce((sum, n) => sum + n, 0),
    agent: ({ trustTestCa = true } = {}) => {
      const agent = new Agent({ ...(trustTestCa ? { ca: ca.pem } : {}), keepAlive: false });
      const dial = agent.createConnection.bind(agent);
      agent.createConnection = (options, callback) => {
        const target = options as ConnectionOptions;
        return dial(
          { ...target, host: '127.0.0.1', port, servername: target.servername ?? target.host },
          callback,
        );
      };
      agents.push(agent);
      return agent;
    },
    close: async () => {
      for (const agent of agents) agent.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A webhook as PayPal sends it: the body's bytes and the transmission headers signing them. */
export function signPayPalEvent(
  event: Record<string, unknown>,
  options: {
    key: KeyObject;
    webhookId: string;
    time: Date;
    certName?: string;
    certUrl?: string;
    algo?: string;
    transmissionId?: string;
  },
): { body: Buffer; headers: Record<string, string> } {
  const body = Buffer.from(JSON.stringify(event));
  const transmissionId = options.transmissionId ?? '69cd13f0-d67a-11e5-baa3-778b53f4ae55';
  const transmissionTime = options.time.toISOString();
  const message = `${transmissionId}|${transmissionTime}|${options.webhookId}|${crc32(body)}`;
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': sign('sha256', Buffer.from(message), options.key).toString('base64'),
      'paypal-cert-url':
        options.certUrl ?? `https://api.paypal.com${CERTIFICATE_PATH}${options.certName ?? 'CERT-good'}`,
      'paypal-auth-algo': options.algo ?? 'SHA256withRSA',
    },
  };
}

/** A PayPal event of `eventType` around `resource`. */
export function paypalEvent(
  eventType: string,
  resource: Record<string, unknown>,
  options: { id?: string; createTime?: string } = {},
): Record<string, unknown> & { id: string } {
  return {
    id: options.id ?? `WH-${eventType.replace(/\./g, '-')}-4FW`,
    event_version: '1.0',
    create_time: options.createTime ?? '2026-03-02T09:59:58.000Z',
    resource_type: eventType.startsWith('PAYMENT.') ? 'sale' : 'subscription',
    event_type: eventType,
    summary: 'A PayPal event',
    resource,
  };
}
