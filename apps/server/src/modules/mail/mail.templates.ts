import { accentPalette } from '@atelier/contracts';
import type { I18nService } from '../i18n/i18n.service';
import { appImageUrl } from '../settings/settings-images.service';
import type { Settings } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';
import { brandedHtml, type MailBrand } from './mail.layout';
import type { MailMessage } from './mailer';
import { formatUtc } from '../../lib/format-date';

/** index.css's clay and its label, for an instance whose admin picked no accent. */
const BUILT_IN_ACCENT = { accent: '#c35636', onAccent: '#ffffff' };

/**
 * Builds the e-mails the server sends, in the instance locale (strings from the translations table):
 * a plain-text part, and an HTML part in the instance's name, logo and accent colour.
 */
export class MailTemplates {
  constructor(
    private readonly i18n: I18nService,
    private readonly settings: SettingsService,
    /** The instance's public address: links and the logo in a mail are absolute. */
    private readonly appUrl: string,
  ) {}

  async passwordReset(to: string, link: string, minutes: number): Promise<MailMessage> {
    return this.build(to, 'mail.password_reset', { link, minutes });
  }

  async verifyEmail(to: string, link: string): Promise<MailMessage> {
    return this.build(to, 'mail.verify_email', { link });
  }

  /** To an account's owner when someone registers with its address; `link` resets the password. */
  async registrationAttempt(to: string, link: string): Promise<MailMessage> {
    return this.build(to, 'mail.registration_attempt', { link });
  }

  /** A share link sent by its owner; `item` and `owner` are names. */
  async shareLink(to: string, vars: { link: string; item: string; owner: string }): Promise<MailMessage> {
    return this.build(to, 'mail.share_link', vars);
  }

  /** An upload request's link, mailed to the outsider the owner named; `notes` may be empty. */
  async uploadRequest(
    to: string,
    vars: { owner: string; name: string; notes: string; expiresAt: string; link: string },
  ): Promise<MailMessage> {
    const { expiresAt, ...rest } = vars;
    const expires = formatUtc(expiresAt, (await this.settings.all()).locale, true);
    return this.build(to, 'mail.upload_request', { ...rest, expires });
  }

  /** Tells an upload request's owner that its first file arrived, or that it was closed. */
  async uploadRequestEvent(
    to: string,
    event: 'arriving' | 'filled',
    vars: { name: string; count: number; link: string },
  ): Promise<MailMessage> {
    return this.build(to, `mail.upload_request_${event}`, vars);
  }

  /** A team-folder invitation; `inviter` and `folder` are names. */
  async teamInvitation(
    to: string,
    vars: { inviter: string; folder: string; link: string },
  ): Promise<MailMessage> {
    return this.build(to, 'mail.team_invitation', vars);
  }

  async contactMessage(to: string, from: string, message: string): Promise<MailMessage> {
    return { ...(await this.build(to, 'mail.contact', { email: from, message })), replyTo: from };
  }

  private async build(to: string, key: string, vars: Record<string, string | number>): Promise<MailMessage> {
    const settings = await this.settings.all();
    const app = settings.app_title;
    const translate = (name: string, extra: Record<string, string | number> = {}) =>
      this.i18n.translate(name, { app, ...vars, ...extra });
    const text = await translate(`${key}.body`);
    const link =
      typeof vars.link === 'string'
        ? {
            url: vars.link,
            action: await translate(`${key}.action`),
            hint: await translate('mail.layout.link_hint'),
          }
        : undefined;
    const footer = await translate('mail.layout.footer', { address: new URL(this.appUrl).host });
    return {
      to,
      subject: await translate(`${key}.subject`),
      text,
      html: brandedHtml(this.brand(settings), { text, link, footer }),
    };
  }

  private brand(settings: Settings): MailBrand {
    const horizontal = settings.app_logo_horizontal;
    const logoKey = horizontal ?? settings.app_logo;
    return {
      name: settings.app_title,
      appUrl: this.appUrl,
      logo: logoKey
        ? { url: `${this.appUrl}${appImageUrl(logoKey)}`, horizontal: Boolean(horizontal) }
        : null,
      accent: settings.app_accent_color ? accentPalette(settings.app_accent_color).light : BUILT_IN_ACCENT,
    };
  }
}
