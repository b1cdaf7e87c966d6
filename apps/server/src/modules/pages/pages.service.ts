import type { ContactBody } from '@atelier/contracts';
import type { PageRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { SettingsService } from '../settings/settings.service';
import type { PagesRepository } from './pages.repository';

/** Public content: the dynamic pages and the contact form. */
export class PagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly settings: SettingsService,
    private readonly mailer: Mailer,
    private readonly mails: MailTemplates,
  ) {}

  async page(slug: string): Promise<PageRow> {
    const page = await this.pages.findVisible(slug);
    if (!page) throw new AppError('not_found', 'errors.not_found');
    return page;
  }

  /** Mails the visitor's message to the instance's contact address. */
  async contact(body: ContactBody): Promise<void> {
    const settings = await this.settings.all();
    const to = settings.contact_email || settings.support_email;
    if (!to) throw new AppError('not_found', 'errors.not_found');
    await this.mailer.send(await this.mails.contactMessage(to, body.email, body.message));
  }
}
