import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Env } from '../../env';
import type { Settings } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same message laid out in the instance's brand (mail.layout.ts). */
  html?: string;
  replyTo?: string;
}

/** Checks an SMTP URL by connecting and authenticating, without sending anything. */
export async function verifySmtp(url: string): Promise<void> {
  const transport = nodemailer.createTransport(url);
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

/**
 * Sends through SMTP when SMTP_URL (or the wizard's SMTP choice) is set; otherwise writes each
 * message as an .eml file under DATA_DIR/mail and logs where, so a fresh install works offline.
 */
export class Mailer {
  private smtp: { url: string; transport: Transporter } | null = null;

  constructor(
    private readonly env: Env,
    private readonly settings: SettingsService,
    private readonly logger: Logger,
  ) {}

  /** The SMTP server mail goes to, or null when messages are written as .eml files. */
  async smtpUrl(): Promise<string | null> {
    return this.smtpUrlOf(await this.settings.all());
  }

  private smtpUrlOf(settings: Settings): string | null {
    return this.env.SMTP_URL ?? (settings.mail_driver === 'smtp' ? settings.smtp_url : null);
  }

  async send(message: MailMessage): Promise<void> {
    const settings = await this.settings.all();
    const smtpUrl = this.smtpUrlOf(settings);
    const from =
      this.env.MAIL_FROM ??
      settings.mail_from ??
      `${settings.app_title} <no-reply@${new URL(this.env.appUrl).hostname}>`;
    const mail = { from, ...message };

    if (smtpUrl) {
      await this.transportFor(smtpUrl).sendMail(mail);
      this.logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      return;
    }
    const built = await nodemailer
      .createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
      .sendMail(mail);
    const folder = path.join(this.env.dataDir, 'mail');
    await mkdir(folder, { recursive: true });
    // Named by the wall clock, so the folder lists the mails in the order they went out.
    const file = path.join(
      folder,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
    );
    // Written under another name and renamed, so whoever watches the folder never reads half a message.
    await writeFile(`${file}.part`, built.message as Buffer);
    await rename(`${file}.part`, file);
    this.logger.info(
      { to: message.to, subject: message.subject, file },
      'mail written to file (no SMTP configured)',
    );
  }

  close(): void {
    this.smtp?.transport.close();
    this.smtp = null;
  }

  private transportFor(url: string): Transporter {
    if (this.smtp?.url !== url) {
      this.smtp?.transport.close();
      this.smtp = { url, transport: nodemailer.createTransport(url) };
    }
    return this.smtp.transport;
  }
}
