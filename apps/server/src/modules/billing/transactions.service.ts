import {
  PAYMENT_REFERENCE_LENGTH,
  fromMinorUnits,
  toMinorUnits,
  type AdminTransactionList,
  type CreditBody,
  type DashboardTransaction,
  type TransactionItem,
  type TransactionList,
} from '@atelier/contracts';
import type { UnitOfWork } from '../../db/database';
import { AppError } from '../../lib/app-error';
import { timeOrderedId } from '../../lib/time-ordered-id';
import { randomAlphanumeric } from '../../lib/tokens';
import type { Broadcaster } from '../../realtime/realtime.server';
import { paginate } from '../files/files.presenter';
import type { RevenueSource } from '../admin/dashboard.service';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { AccountDirectory } from '../users/users.service';
import type { TransactionRow } from './billing.tables';
import { formatMoneyIn } from './metered.service';
import { presentAdminTransaction, presentTransaction } from './transactions.presenter';
import {
  BalanceCurrencyMismatch,
  type TransactionFilter,
  type TransactionsRepository,
} from './transactions.repository';

export interface TransactionsServiceDeps {
  transactions: TransactionsRepository;
  users: AccountDirectory;
  settings: SettingsService;
  realtime: Broadcaster;
  notifications: NotificationsService;
  i18n: I18nService;
  units: UnitOfWork;
  /** Metered billing settles what a credit can now pay for. */
  onBalanceCredited: (userId: string) => Promise<void>;
  /** The currency the user's balance is kept in (metered billing's). */
  balanceCurrency: (userId: string) => Promise<string>;
  now: () => Date;
}

/** The ledger's readers (the user's history, the admin's list, the dashboard's revenue) and the admin's credit. */
export class TransactionsService implements RevenueSource {
  constructor(private readonly deps: TransactionsServiceDeps) {}

  async forUser(userId: string, page: number, perPage: number): Promise<TransactionList> {
    const { rows, total } = await this.deps.transactions.page({ userId }, page, perPage);
    return { data: rows.map(presentTransaction), meta: { paginate: paginate(total, page, perPage) } };
  }

  async list(
    filter: Omit<TransactionFilter, 'userId' | 'since'>,
    page: number,
    perPage: number,
  ): Promise<AdminTransactionList> {
    const { rows, total } = await this.deps.transactions.page(filter, page, perPage);
    return { data: rows.map(presentAdminTransaction), meta: { paginate: paginate(total, page, perPage) } };
  }

  /** The user's own transaction (404 for anyone else's). */
  async ownTransaction(userId: string, id: string): Promise<TransactionRow> {
    const row = await this.deps.transactions.find(id);
    if (!row || row.user_id !== userId) throw new AppError('not_found', 'errors.not_found');
    return row;
  }

  /**
   * POST /api/admin/users/{id}/credit: adds to a metered balance, in the balance's currency, and
   * tells the user with a `gift` notification; the two are stored together or not at all.
   */
  async credit(userId: string, body: CreditBody): Promise<TransactionItem> {
    const [user, settings] = await Promise.all([this.deps.users.findById(userId), this.deps.settings.all()]);
    if (!user) throw new AppError('not_found', 'errors.not_found');
    if (settings.subscription_type !== 'metered') throw AppError.invalid('amount', 'billing.not_metered');
    const currency = await this.deps.balanceCurrency(user.id);
    const amountMinor = toMinorUnits(body.amount, currency);
    if (amountMinor === null || amountMinor <= 0) throw AppError.invalid('amount', 'billing.money_decimals');
    const at = this.deps.now().toISOString();
    const row = await this.deps.units.transaction(async () => {
      const recorded = await this.deps.transactions
        .recordOnce(
          {
            id: timeOrderedId(),
            user_id: user.id,
            user_name: user.name,
            user_email: user.email,
            plan_id: null,
            subscription_id: null,
            type: 'credit',
            status: 'completed',
            amount_minor: amountMinor,
            currency,
            driver: 'admin',
            reference: randomAlphanumeric(PAYMENT_REFERENCE_LENGTH),
            note: body.note,
            created_at: at,
            updated_at: at,
          },
          { userId: user.id, deltaMinor: amountMinor, currency, at },
        )
        .catch((error: unknown) => {
          // Another credit opened the balance in another currency meanwhile: no sum of the two means anything.
          if (error instanceof BalanceCurrencyMismatch)
            throw AppError.invalid('amount', 'billing.balance_currency');
          throw error;
        });
      await this.notifyGift(user.id, { amount_minor: amountMinor, currency }, body.note);
      return recorded;
    });
    await this.deps.onBalanceCredited(user.id);
    await this.deps.realtime.emitToUser(user.id, 'user.updated', { user_id: user.id });
    return presentTransaction(row!);
  }

  /** The sum as the billing page shows it, in the recipient's language, and the text in it too. */
  private async notifyGift(
    userId: string,
    money: { amount_minor: number; currency: string },
    note: string,
  ): Promise<void> {
    const vars = { amount: formatMoneyIn(await this.deps.i18n.localeFor(userId), money), note };
    await this.deps.notifications.notify(userId, {
      category: 'gift',
      title: await this.deps.i18n.translateFor(userId, 'notifications.gift.title', vars),
      description: await this.deps.i18n.translateFor(userId, 'notifications.gift.description', vars),
      action: { type: 'route', params: { route: 'Billing' } },
    });
  }

  /** Completed charges in the instance's currency (a plan in another currency is left out of the sums). */
  async revenue(since: Date, months: string[]) {
    const currency = await this.deps.settings.get('currency');
    const firstMonth = months.length > 0 ? new Date(`${months[0]}-01T00:00:00.000Z`) : since;
    const from = firstMonth < since ? firstMonth : since;
    const charges = await this.deps.transactions.chargesSince(from.toISOString());
    const byMonth = new Map<string, number>();
    let recent = 0;
    for (const charge of charges) {
      if (charge.currency !== currency) continue;
      byMonth.set(charge.month, (byMonth.get(charge.month) ?? 0) + charge.amount_minor);
      if (charge.created_at >= since.toISOString()) recent += charge.amount_minor;
    }
    return {
      currency,
      since: fromMinorUnits(recent, currency),
      byMonth: months.map((month) => fromMinorUnits(byMonth.get(month) ?? 0, currency)),
    };
  }

  async latestTransactions(limit: number): Promise<DashboardTransaction[]> {
    const { rows } = await this.deps.transactions.page({}, 1, limit);
    return rows.map((row) => {
      const item = presentTransaction(row);
      return {
        id: item.id,
        user: row.user_id ? { id: row.user_id, name: row.user_name } : null,
        note: item.note,
        status: item.status,
        type: item.type,
        amount: item.amount,
        currency: item.currency,
        created_at: item.created_at,
      };
    });
  }
}
