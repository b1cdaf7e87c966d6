import { fromMinorUnits } from '@atelier/contracts';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatUtc } from '../../lib/format-date';
import { AppError } from '../../lib/app-error';
import type { I18nService } from '../i18n/i18n.service';
import type { SettingsService } from '../settings/settings.service';
import { addInterval } from './billing-periods';
import type { PlanRow, TransactionRow } from './billing.tables';
import type { PlansRepository } from './plans.repository';
import { hasInvoice } from './transactions.presenter';
import type { TransactionsRepository } from './transactions.repository';

/**
 * DejaVu Sans (a free font shipped as .ttf by an npm package) instead of PDF's built-in Helvetica,
 * which only knows WinAnsi: names in Cyrillic, Greek and most Latin scripts print as written.
 * pdfkit embeds only the glyphs used, so an invoice stays small.
 */
const require = createRequire(import.meta.url);
const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export interface InvoicesServiceDeps {
  transactions: Pick<TransactionsRepository, 'find'>;
  plans: Pick<PlansRepository, 'find'>;
  settings: SettingsService;
  i18n: I18nService;
}

export interface Invoice {
  /** `invoice-{reference}.pdf`, the reference kept to characters safe in a file name. */
  filename: string;
  pdf: Buffer;
}

/** PDF invoices of completed charges: the owner's own, and any for the admin. */
export class InvoicesService {
  constructor(private readonly deps: InvoicesServiceDeps) {}

  /** GET /api/user/transactions/{id}/invoice: 404 for anyone else's, a credit, a failed charge. */
  async forUser(userId: string, id: string): Promise<Invoice> {
    const row = await this.deps.transactions.find(id);
    if (!row || row.user_id !== userId) throw new AppError('not_found', 'errors.not_found');
    return this.invoice(row);
  }

  /** GET /api/admin/transactions/{id}/invoice: any completed charge. */
  async forAdmin(id: string): Promise<Invoice> {
    const row = await this.deps.transactions.find(id);
    if (!row) throw new AppError('not_found', 'errors.not_found');
    return this.invoice(row);
  }

  private async invoice(row: TransactionRow): Promise<Invoice> {
    if (!hasInvoice(row)) throw new AppError('not_found', 'errors.not_found');
    const plan = row.plan_id ? await this.deps.plans.find(row.plan_id) : undefined;
    const pdf = await this.render(row, plan ?? null);
    const safeReference = row.reference.replace(/[^A-Za-z0-9_-]/g, '_');
    return { filename: `invoice-${safeReference}.pdf`, pdf };
  }

  private async render(row: TransactionRow, plan: PlanRow | null): Promise<Buffer> {
    const settings = await this.deps.settings.all();
    const t = (key: string, vars?: Record<string, string | number>) => this.deps.i18n.translate(key, vars);
    const date = (iso: string) => formatUtc(iso, settings.locale);
    const instance = settings.app_title;
    const contact = settings.contact_email || settings.support_email || '';
    const amount = `${fromMinorUnits(Number(row.amount_minor), row.currency)} ${row.currency}`;
    const driverKey = `invoices.driver_${row.driver}`;
    const driver = await t(driverKey);

    const title = `${await t('invoices.title')} ${row.reference}`;
    const document = new PDFDocument({
      size: 'A4',
      margin: 56,
      font: FONT_REGULAR,
      info: { Title: title, Author: instance, CreationDate: new Date(row.created_at) },
    });
    document.registerFont('regular', FONT_REGULAR);
    document.registerFont('bold', FONT_BOLD);
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      document.on('data', (chunk: Buffer) => chunks.push(chunk));
      document.on('end', () => resolve(Buffer.concat(chunks)));
      document.on('error', reject);
    });

    const left = document.page.margins.left;
    const width = document.page.width - left - document.page.margins.right;

    // The instance, as the seller.
    document.font('bold').fontSize(18).text(instance, { width });
    if (contact)
      document
        .font('regular')
        .fontSize(10)
        .text(await t('invoices.contact', { email: contact }));
    document.moveDown(1.5);

    // Invoice, reference and date.
    document
      .font('bold')
      .fontSize(22)
      .text(await t('invoices.title'));
    document.font('regular').fontSize(10);
    document.text(await t('invoices.reference', { reference: row.reference }));
    document.text(await t('invoices.date', { date: date(row.created_at) }));
    document.moveDown(1.5);

    // The person billed, as the transaction recorded them.
    document
      .font('bold')
      .fontSize(11)
      .text(await t('invoices.billed_to'));
    document.font('regular').fontSize(10).text(row.user_name, { width });
    document.text(row.user_email, { width });
    document.moveDown(1.5);

    // The line: what was paid for, and its amount.
    const amountWidth = 140;
    const descriptionWidth = width - amountWidth - 12;
    const headerY = document.y;
    document.font('bold').fontSize(10);
    document.text(await t('invoices.description'), left, headerY, { width: descriptionWidth });
    document.text(await t('invoices.amount'), left + width - amountWidth, headerY, {
      width: amountWidth,
      align: 'right',
    });
    document
      .moveTo(left, document.y + 4)
      .lineTo(left + width, document.y + 4)
      .strokeColor('#999999')
      .stroke();
    document.moveDown(0.8);

    const lineY = document.y;
    const description = row.note || plan?.name || '';
    document.font('regular').fontSize(10);
    document.text(amount, left + width - amountWidth, lineY, { width: amountWidth, align: 'right' });
    document.text(description, left, lineY, { width: descriptionWidth });
    if (plan && plan.name !== description) document.text(await t('invoices.plan', { plan: plan.name }));
    if (plan?.type === 'fixed' && plan.interval) {
      document.text(
        await t('invoices.period', {
          start: date(row.created_at),
          // The end of the period the charge pays for: one interval after it.
          end: date(addInterval(new Date(row.created_at), plan.interval)),
        }),
      );
    }
    document.moveDown(0.8);
    document
      .moveTo(left, document.y)
      .lineTo(left + width, document.y)
      .strokeColor('#999999')
      .stroke();
    document.moveDown(0.8);

    const totalY = document.y;
    document.font('bold').fontSize(11);
    document.text(await t('invoices.total'), left, totalY, { width: descriptionWidth });
    document.text(amount, left + width - amountWidth, totalY, { width: amountWidth, align: 'right' });
    document.moveDown(1.5);

    // Settled: status and the way it was paid.
    document.font('regular').fontSize(10);
    document.text(await t('invoices.status', { status: await t('invoices.status_paid') }), left);
    document.text(await t('invoices.paid_with', { driver: driver === driverKey ? row.driver : driver }));
    document.moveDown(2);
    document.fillColor('#666666').text(await t('invoices.thanks'));

    document.end();
    return done;
  }
}
