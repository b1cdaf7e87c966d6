import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * A tiny X.509 v3 builder for tests: RSA keys, SHA256withRSA signatures, a common name, optional
 * DNS names and the CA flag. Enough for a test CA, a TLS server certificate it issues and a
 * webhook signing certificate, so no certificate files live in the repository.
 */

function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  let header: Buffer;
  if (length < 0x80) header = Buffer.from([tag, length]);
  else if (length < 0x100) header = Buffer.from([tag, 0x81, length]);
  else if (length < 0x10000) header = Buffer.from([tag, 0x82, length >> 8, length & 0xff]);
  else throw new Error('DER value too long for this builder');
  return Buffer.concat([header, content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => der(0xa0 + n, content);

function integer(value: number | bigint): Buffer {
  let hex = BigInt(value).toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return der(0x02, bytes);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const base128 = [part & 0x7f];
    for (let rest = part >> 7; rest > 0; rest >>= 7) base128.unshift((rest & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : der(0x18, Buffer.from(`${iso}Z`));
}

const name = (commonName: string) =>
  sequence(set(sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName)))));
const sha256WithRsa = sequence(oid('1.2.840.113549.1.1.11'), der(0x05, Buffer.alloc(0)));

export interface TestCertificate {
  pem: string;
  key: KeyObject;
  /** The issuer's name, for the next certificate this one issues. */
  commonName: string;
}

let serial = 1000;

/** Issued by `issuer` (its name and key), or self-signed without one. */
export function buildCertificate(options: {
  commonName: string;
  dnsNames?: string[];
  ca?: boolean;
  notBefore: Date;
  notAfter: Date;
  issuer?: TestCertificate;
  key?: KeyObject;
}): TestCertificate {
  const key = options.key ?? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const extensions: Buffer[] = [];
  if (options.ca) {
    extensions.push(
      sequence(
        oid('2.5.29.19'),
        der(0x01, Buffer.from([0xff])),
        der(0x04, sequence(der(0x01, Buffer.from([0xff])))),
      ),
    );
  }
  if (options.dnsNames?.length) {
    const names = options.dnsNames.map((dns) => der(0x82, Buffer.from(dns)));
    extensions.push(sequence(oid('2.5.29.17'), der(0x04, sequence(...names))));
  }
  const tbs = sequence(
    explicit(0, integer(2)),
    integer((serial += 1)),
    sha256WithRsa,
    name(options.issuer?.commonName ?? options.commonName),
    sequence(time(options.notBefore), time(options.notAfter)),
    name(options.commonName),
    createPublicKey(key).export({ type: 'spki', format: 'der' }),
    ...(extensions.length ? [explicit(3, sequence(...extensions))] : []),
  );
  const signature = sign('sha256', tbs, options.issuer?.key ?? key);
  const certificate = sequence(tbs, sha256WithRsa, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = certificate.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`.replace('\n\n', '\n'),
    key,
    commonName: options.commonName,
  };
}
