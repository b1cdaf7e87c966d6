import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SettingsSection } from '../admin/settings/settings-parts';
import { billingKeys, fetchPaymentEvents } from './billing-api';
import { formatDate } from '../../lib/format-date';
import { driverName } from './billing-parts';
import { formatMoney } from './format-money';

/**
 * Provider payments the ledger kept instead of applying: verified, but matching no checkout made
 * here (or never applicable). Shown only while there are some; each says what it claimed and why
 * it moved no money, so the admin can compare it with the provider's dashboard.
 */
export function PaymentEventsPanel() {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: billingKeys.paymentEvents, queryFn: () => fetchPaymentEvents(1) });
  const events = query.data?.data ?? [];
  if (events.length === 0) return null;
  return (
    <SettingsSection
      title={t('billing_ui.review_title', { count: query.data?.meta.paginate.total ?? events.length })}
      lead={t('billing_ui.review_lead')}
      icon={<ShieldAlert className="size-5 text-danger" aria-hidden />}
    >
      <ul className="flex flex-col divide-y divide-line" data-testid="payment-events">
        {events.map((event) => (
          <li
            key={event.id}
            className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-baseline sm:gap-4"
          >
            <span className="font-semibold tabular-nums sm:w-36 sm:shrink-0">
              {event.payment
                ? formatMoney(event.payment.amount, event.payment.currency, i18n.language)
                : event.event_type}
            </span>
            <span className="min-w-0 flex-1 text-sm">
              {t(`billing.review_reason.${event.reason ?? 'no_checkout'}`, {
                defaultValue: event.reason ?? '',
              })}
              <span className="block truncate font-mono text-xs text-muted">
                {driverName(event.driver)} · {event.payment?.reference ?? event.event_id}
              </span>
            </span>
            <span className="text-xs text-muted sm:text-right">
              {formatDate(event.received_at, i18n.language)}
            </span>
          </li>
        ))}
      </ul>
    </SettingsSection>
  );
}
