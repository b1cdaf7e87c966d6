import type { I18nService } from '../i18n/i18n.service';
import type { SettingsService } from '../settings/settings.service';
import type { MailMessage } from './mailer';

/** Builds the e-mails the server sends, in the instance locale (strings from the translations table). */
export class MailTemplates {
  constructor(
    private readonly i18n: I18nService,
    private readonly settings: SettingsService,
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
    vars: { owner: string; name: string; notes: string; expires: string; link: string },
  ): Promise<MailMessage> {
    return this.build(to, 'mail.upload_request', vars);
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
    const app = await this.settings.get('app_title');
    return {
      to,
      subject: await this.i18n.translate(`${key}.subject`, { app, ...vars }),
      text: await this.i18n.translate(`${key}.body`, { app, ...vars }),
    };
  }
}
