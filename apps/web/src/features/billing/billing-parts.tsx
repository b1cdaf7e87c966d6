import type { PaymentDriver, SubscriptionStatus, TransactionStatus } from '@atelier/contracts';
import { ArrowLeftRight, CreditCard, Layers, ReceiptText, Wallet } from 'lucide-react';
import { useEffect, useRef, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { SELECT_CHEVRON } from '../../components/ui/field';
import { LinkTabs } from '../../components/ui/link-tabs';
import { cn } from '../../lib/cn';

/** Provider names are brands: the same in every language. */
export const DRIVER_NAMES: Record<PaymentDriver, string> = {
  stripe: 'Stripe',
  paypal: 'PayPal',
  paystack: 'Paystack',
};

export function driverName(driver: string | null): string {
  return driver && driver in DRIVER_NAMES ? DRIVER_NAMES[driver as PaymentDriver] : (driver ?? '');
}

const badge = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap';

const SUBSCRIPTION_TONE: Record<SubscriptionStatus, string> = {
  active: 'bg-success-soft text-success',
  cancelled: 'bg-accent-soft text-accent',
  completed: 'bg-surface-2 text-muted',
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation();
  return (
    <span className={cn(badge, SUBSCRIPTION_TONE[status])} data-testid="subscription-status">
      {t(`plans.subscription_status.${status}`)}
    </span>
  );
}

const TRANSACTION_TONE: Record<TransactionStatus, string> = {
  successful: 'bg-success-soft text-success',
  completed: 'bg-success-soft text-success',
  cancelled: 'bg-surface-2 text-muted',
  stopped: 'bg-surface-2 text-muted',
  failed: 'bg-danger-soft text-danger',
  error: 'bg-danger-soft text-danger',
};

export function TransactionStatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useTranslation();
  return (
    <span className={cn(badge, TRANSACTION_TONE[status])}>
      {t(`billing_ui.transaction_status.${status}`)}
    </span>
  );
}

export const filterControl =
  'h-10 w-full rounded-xl border border-line bg-surface px-3 text-sm text-ink shadow-soft focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none';

/** A compact select of a list's filter bar, its label for screen readers only. */
export function FilterSelect({
  label,
  options,
  className,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: { value: string; label: string }[] }) {
  return (
    <label className={cn('flex-1 sm:flex-none', className)}>
      <span className="sr-only">{label}</span>
      <select
        className={cn(
          filterControl,
          'appearance-none bg-[length:16px] bg-[right_0.6rem_center] bg-no-repeat pr-9',
        )}
        style={{ backgroundImage: SELECT_CHEVRON }}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The admin's billing screens, reached from one another: plans, subscriptions, transactions, payments. */
export function BillingAdminTabs() {
  const { t } = useTranslation();
  const wrapper = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // On a phone the row scrolls sideways: the open screen's tab is brought into view.
  useEffect(() => {
    const bar = wrapper.current?.querySelector('nav');
    const active = bar?.querySelector<HTMLElement>('[aria-current="page"]');
    if (bar && active) bar.scrollLeft = active.offsetLeft - (bar.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);
  return (
    <div ref={wrapper}>
      <LinkTabs
        label={t('billing_ui.admin_tabs')}
        tabs={[
          { to: '/admin/plans', label: t('pages.admin_plans'), icon: Layers },
          { to: '/admin/subscriptions', label: t('pages.admin_subscriptions'), icon: ArrowLeftRight },
          { to: '/admin/invoices', label: t('pages.admin_invoices'), icon: ReceiptText },
          { to: '/admin/payments/billings', label: t('billing_ui.payments_tab'), icon: Wallet },
          { to: '/admin/payments/payments', label: t('pages.admin_payments_payments'), icon: CreditCard },
        ]}
      />
    </div>
  );
}
