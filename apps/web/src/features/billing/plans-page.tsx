import type { AdminPlanItem } from '@atelier/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Gauge, Plus, Receipt } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { cn } from '../../lib/cn';
import { AdminHeader, LoadState, Pager } from '../admin/users/admin-header';
import { BillingAdminTabs } from './billing-parts';
import { PlanPrice, PlanStatusBadge } from './plan-summary';
import { fetchPlans, planKeys } from './plans-api';

/** /admin/plans: every plan, fixed and metered, with its price, status and subscribers. */
export function PlansPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const plans = useQuery({
    queryKey: planKeys.list(page),
    queryFn: () => fetchPlans(page),
    placeholderData: keepPreviousData,
  });

  const actions = (
    <>
      <Button asChild>
        <Link to="/admin/plan/create/fixed">
          <Plus className="size-4" aria-hidden />
          {t('plans.create_fixed')}
        </Link>
      </Button>
      <Button asChild variant="secondary">
        <Link to="/admin/plan/create/metered">
          <Gauge className="size-4" aria-hidden />
          {t('plans.create_metered')}
        </Link>
      </Button>
    </>
  );

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_plans')} lead={t('plans.list_lead')}>
        {actions}
      </AdminHeader>
      <BillingAdminTabs />
      {!plans.data ? (
        <LoadState failed={plans.isError} />
      ) : plans.data.data.length === 0 ? (
        <EmptyState icon={Receipt} title={t('plans.none_title')} body={t('plans.none_body')} />
      ) : (
        <Card className={cn('overflow-hidden transition-opacity', plans.isPlaceholderData && 'opacity-60')}>
          <table className="w-full text-sm" data-testid="plans-table">
            <thead className="hidden border-b border-line bg-surface-2/60 text-left text-xs font-semibold tracking-wide text-muted uppercase md:table-header-group">
              <tr>
                <th className="px-5 py-3">{t('plans.column_plan')}</th>
                <th className="px-3 py-3">{t('plans.column_type')}</th>
                <th className="px-3 py-3">{t('plans.column_price')}</th>
                <th className="px-3 py-3">{t('plans.column_status')}</th>
                <th className="px-5 py-3 text-right">{t('plans.column_subscribers')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {plans.data.data.map((plan) => (
                <PlanRow
                  key={plan.id}
                  plan={plan}
                  onOpen={() => void navigate(`/admin/plan/${plan.id}/${plan.attributes.type}/settings`)}
                />
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {plans.data && <Pager paginate={plans.data.meta.paginate} onPage={setPage} />}
    </section>
  );
}

function PlanRow({ plan, onOpen }: { plan: AdminPlanItem; onOpen: () => void }) {
  const { t } = useTranslation();
  const { attributes } = plan;
  return (
    <tr
      data-testid="plan-row"
      className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-3 transition-colors hover:bg-surface-2 md:table-row md:px-0"
      onClick={onOpen}
    >
      <td className="w-full min-w-0 md:w-auto md:px-5 md:py-3">
        <Link
          to={`/admin/plan/${plan.id}/${attributes.type}/settings`}
          onClick={(event) => event.stopPropagation()}
          className="block truncate font-semibold text-ink hover:underline"
        >
          {attributes.name}
        </Link>
        {attributes.description && <p className="truncate text-xs text-muted">{attributes.description}</p>}
      </td>
      <td className="text-xs text-muted md:px-3 md:py-3 md:text-sm md:text-ink">
        {t(`plans.type.${attributes.type}`)}
      </td>
      <td className="text-sm font-medium tabular-nums md:px-3 md:py-3">
        <PlanPrice plan={attributes} />
      </td>
      <td className="md:px-3 md:py-3">
        <PlanStatusBadge status={attributes.status} />
      </td>
      <td className="ml-auto text-xs text-muted tabular-nums md:px-5 md:py-3 md:text-right md:text-sm md:text-ink">
        <span className="md:hidden">{t('plans.subscribers_count', { count: plan.meta.subscribers })}</span>
        <span className="hidden md:inline">{plan.meta.subscribers}</span>
      </td>
    </tr>
  );
}
