import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { DavRefusal } from './webdav.refusals';

/** The checksum types the sync clients send in OC-Checksum, by their upper-case names. */
type ChecksumType = 'SHA1' | 'MD5' | 'ADLER32';

export interface ClientChecksum {
  type: ChecksumType;
  /** Lower-case hex, as the clients write it. */
  value: string;
  /** `SHA1:…`, as stored and given back in oc:checksums. */
  text: string;
}

/** `OC-Checksum: SHA1:9b0c…`; malformed for an unknown type or a value that is no hex. */
export function parseChecksum(header: string | undefined): ClientChecksum | null {
  if (header === undefined || header.trim() === '') return null;
  const match = /^\s*(SHA1|MD5|ADLER32):([0-9a-f]{1,128})\s*$/i.exec(header);
  if (!match) throw new DavRefusal('malformed');
  const type = match[1]!.toUpperCase() as ChecksumType;
  const value = match[2]!.toLowerCase();
  return { type, value, text: `${type}:${value}` };
}

/**
 * Passes a body through while computing its checksum, and fails the stream at its end when the
 * checksum differs from the client's: the upload reading it sees an error instead of the end, so it
 * stores nothing (400, as Nextcloud answers).
 */
export function verifyingChecksum(expected: ClientChecksum): Transform {
  const digest: Digest =
    expected.type === 'ADLER32' ? new Adler32() : createHash(expected.type === 'SHA1' ? 'sha1' : 'md5');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      digest.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      const actual = digest.digest('hex');
      // Adler-32's hex comes without leading zeros from some clients: compared as numbers.
      const same =
        expected.type === 'ADLER32'
          ? Number.parseInt(actual, 16) === Number.parseInt(expected.value, 16)
          : actual === expected.value;
      done(same ? null : new DavRefusal('malformed'));
    },
  });
}

interface Digest {
  update(data: Buffer): unknown;
  digest(encoding: 'hex'): string;
}

/** Adler-32 (RFC 1950), fed piece by piece. */
class Adler32 implements Digest {
  private a = 1;
  private b = 0;

  update(data: Buffer): void {
    // Sums stay below 2^53 for 5552 bytes at a time, the bound zlib uses before reducing.
    for (let start = 0; start < data.length; start += 5552) {
      const end = Math.min(data.length, start + 5552);
      for (let i = start; i < end; i++) {
        this.a += data[i]!;
        this.b += this.a;
      }
      this.a %= 65521;
      this.b %= 65521;
    }
  }

  digest(_encoding: 'hex'): string {
    return (((this.b << 16) | this.a) >>> 0).toString(16).padStart(8, '0');
  }
}
