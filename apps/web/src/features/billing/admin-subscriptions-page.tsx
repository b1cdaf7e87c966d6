import { SubscriptionStatus, type AdminSubscriptionItem } from '@atelier/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeftRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { AdminListPage } from './admin-list-page';
import { billingKeys, fetchAdminSubscriptions } from './billing-api';
import { formatDate } from '../../lib/format-date';
import { driverName, FilterSelect, SubscriptionStatusBadge } from './billing-parts';
import { useListFilters } from './use-list-filters';

const FILTERS = ['status'] as const;

/** /admin/subscriptions: who holds which plan, searchable by person or plan, filtered by status. */
export function AdminSubscriptionsPage() {
  const { t } = useTranslation();
  const { filters, page, search, typed, setTyped, update } = useListFilters(FILTERS);
  const query = {
    page,
    search,
    status: SubscriptionStatus.options.find((status) => status === filters.status),
  };
  const subscriptions = useQuery({
    queryKey: billingKeys.adminSubscriptions(query),
    queryFn: () => fetchAdminSubscriptions(query),
    placeholderData: keepPreviousData,
  });
  const filtered = search !== '' || query.status !== undefined;

  return (
    <AdminListPage
      title={t('pages.admin_subscriptions')}
      lead={t('billing_ui.subscriptions_lead')}
      searchPlaceholder={t('billing_ui.search_subscriptions')}
      typed={typed}
      onTyped={setTyped}
      list={subscriptions}
      filtered={filtered}
      onPage={(next) => update({ page: next })}
      emptyIcon={ArrowLeftRight}
      emptyTitle="billing_ui.subscriptions_none_title"
      emptyBody="billing_ui.subscriptions_none_body"
      filters={
        <FilterSelect
          label={t('billing_ui.column_status')}
          value={filters.status}
          onChange={(event) => update({ status: event.target.value })}
          options={[
            { value: '', label: t('billing_ui.status_all') },
            ...SubscriptionStatus.options.map((status) => ({
              value: status,
              label: t(`plans.subscription_status.${status}`),
            })),
          ]}
        />
      }
    >
      {(items, dimmed) => (
        <Card className={cn('overflow-hidden transition-opacity', dimmed && 'opacity-60')}>
          <table className="w-full text-sm" data-testid="subscriptions-table">
            <thead className="hidden border-b border-line bg-surface-2/60 text-left text-xs font-semibold tracking-wide text-muted uppercase md:table-header-group">
              <tr>
                <th className="px-5 py-3">{t('billing_ui.column_user')}</th>
                <th className="px-3 py-3">{t('billing_ui.column_plan')}</th>
                <th className="px-3 py-3">{t('billing_ui.column_status')}</th>
                <th className="px-3 py-3">{t('billing_ui.column_driver')}</th>
                <th className="px-3 py-3">{t('billing_ui.column_renews')}</th>
                <th className="px-5 py-3 text-right">{t('billing_ui.column_created')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {items.map((subscription) => (
                <SubscriptionRow key={subscription.id} subscription={subscription} />
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </AdminListPage>
  );
}

function SubscriptionRow({ subscription }: { subscription: AdminSubscriptionItem }) {
  const { t, i18n } = useTranslation();
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : '—');
  const until = subscription.status === 'active' ? subscription.renews_at : subscription.ends_at;
  return (
    <tr
      data-testid="subscription-row"
      className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 px-4 py-3.5 md:table-row md:px-0"
    >
      <td className="min-w-0 md:px-5 md:py-3">
        <Link
          to={`/admin/user/${subscription.user.id}/subscription`}
          className="font-semibold hover:underline"
        >
          {subscription.user.name}
        </Link>
        <p className="truncate text-xs text-muted">{subscription.user.email}</p>
      </td>
      <td className="text-right md:hidden">
        <SubscriptionStatusBadge status={subscription.status} />
      </td>
      <td className="md:px-3 md:py-3">
        <Link
          to={`/admin/plan/${subscription.plan.id}/${subscription.plan.type}/subscribers`}
          className="font-medium hover:underline"
        >
          {subscription.plan.name}
        </Link>
        <span className="text-xs text-muted md:hidden"> · {t(`plans.type.${subscription.plan.type}`)}</span>
      </td>
      <td className="hidden md:table-cell md:px-3 md:py-3">
        <SubscriptionStatusBadge status={subscription.status} />
      </td>
      <td className="text-right text-xs text-muted md:px-3 md:py-3 md:text-left md:text-sm md:text-ink">
        {driverName(subscription.driver) || t('billing_ui.balance')}
      </td>
      <td className="text-xs text-muted md:px-3 md:py-3 md:text-sm md:text-ink">
        <span className="md:hidden">
          {t(subscription.status === 'active' ? 'billing_ui.renews_on' : 'billing_ui.ends_on')}{' '}
        </span>
        {date(until)}
      </td>
      <td className="text-right text-xs text-muted md:px-5 md:py-3 md:text-sm md:text-ink">
        <span className="md:hidden">{t('billing_ui.since')} </span>
        {date(subscription.created_at)}
      </td>
    </tr>
  );
}
