import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw RFC 822 message. */
  raw: string;
  subject: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  text: string;
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

/** The text body of a single-part message, quoted-printable undone. */
export function bodyOf(raw: string): string {
  const match = /\r?\n\r?\n/.exec(raw);
  const body = match ? raw.slice(match.index + match[0].length) : raw;
  if (!/^Content-Transfer-Encoding: quoted-printable/im.test(raw)) return body;
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
