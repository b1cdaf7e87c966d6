import type { ContactBody, CreatePageBody, UpdatePageBody } from '@atelier/contracts';
import type { PageRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { MailTemplates } from '../mail/mail.templates';
import type { Mailer } from '../mail/mailer';
import type { SettingsService } from '../settings/settings.service';
import type { PagesRepository } from './pages.repository';

/** Content: the dynamic pages (read by anyone, written by admins) and the contact form. */
export class PagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly settings: SettingsService,
    private readonly mailer: Mailer,
    private readonly mails: MailTemplates,
    private readonly now: () => Date,
  ) {}

  /** A hidden page is not found, except by an admin (who previews it before showing it). */
  async page(slug: string, viewer: { role: string } | null): Promise<PageRow> {
    const page = await this.pages.find(slug);
    if (!page || (page.visibility !== 1 && viewer?.role !== 'admin'))
      throw new AppError('not_found', 'errors.not_found');
    return page;
  }

  list(): Promise<PageRow[]> {
    return this.pages.list();
  }

  async create(body: CreatePageBody): Promise<PageRow> {
    const row = { ...body, visibility: body.visibility ? 1 : 0, updated_at: this.now().toISOString() };
    if (!(await this.pages.insert(row))) throw AppError.invalid('slug', 'admin_pages.errors.slug_taken');
    return row;
  }

  async update(slug: string, body: UpdatePageBody): Promise<PageRow> {
    const { visibility, ...texts } = body;
    const page = await this.pages.update(slug, {
      ...texts,
      ...(visibility === undefined ? {} : { visibility: visibility ? 1 : 0 }),
      updated_at: this.now().toISOString(),
    });
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
