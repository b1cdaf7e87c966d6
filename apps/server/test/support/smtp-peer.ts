import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw RFC 822 message. */
  raw: string;
  subject: string;
  /** The plain-text body (the text part of a multipart message), quoted-printable undone. */
  text: string;
  /** The HTML part, when the message has one. */
  html: string | null;
}

/** A real SMTP server on a free local port that keeps every message it accepts. */
export class SmtpPeer {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  port = 0;

  constructor(options: { user?: string; pass?: string } = {}) {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: !options.user,
      onAuth: (auth, _session, callback) => {
        if (auth.username === options.user && auth.password === options.pass)
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
            text: bodyOf(raw),
            html: partOf(raw, 'text/html'),
          });
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves with the first message to the address, waiting for it to arrive if needed. */
  async waitFor(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => m.to.includes(to));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} arrived`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

/** Headers and body of a message or of one of its parts. */
function split(entity: string): { headers: string; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  return match
    ? { headers: entity.slice(0, match.index), body: entity.slice(match.index + match[0].length) }
    : { headers: '', body: entity };
}

/** The body as its headers encode it: quoted-printable undone (as UTF-8), base64 decoded. */
function decoded({ headers, body }: { headers: string; body: string }): string {
  if (/^Content-Transfer-Encoding: base64/im.test(headers))
    return Buffer.from(body, 'base64').toString('utf8');
  if (!/^Content-Transfer-Encoding: quoted-printable/im.test(headers)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The decoded body of the message's part of the type, searched through nested multiparts. */
function partOf(raw: string, type: string): string | null {
  const entity = split(raw);
  const boundary = /^Content-Type: multipart\/[^;]+;[\s\S]*?boundary="?([^"\r\n;]+)"?/im.exec(
    entity.headers,
  )?.[1];
  if (!boundary) {
    const own = /^Content-Type: ([^;\r\n]+)/im.exec(entity.headers)?.[1] ?? 'text/plain';
    return own.toLowerCase() === type ? decoded(entity) : null;
  }
  // The text before the first boundary is a preamble; the last one is followed by `--`.
  for (const part of entity.body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const found = partOf(part.replace(/^\r?\n/, ''), type);
    if (found !== null) return found;
  }
  return null;
}

/** The plain-text body of a message (its text part when it also has HTML), decoded. */
export function bodyOf(raw: string): string {
  return partOf(raw, 'text/plain') ?? '';
}
