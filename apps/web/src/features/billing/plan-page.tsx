import type { AdminPlanItem } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, Settings2, ShieldAlert, Trash2, Users, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkTabs, TabHeading } from '../../components/ui/link-tabs';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { InputField, TextareaField } from '../../components/ui/field';
import { useApiForm } from '../../lib/use-api-form';
import { AdminHeader, LoadState, Pager } from '../admin/users/admin-header';
import { FeatureFields, featuresBody } from './feature-fields';
import { formatMoney } from './format-money';
import { PlanPrice, PlanStatusBadge } from './plan-summary';
import { deletePlan, fetchPlan, fetchSubscribers, planKeys, updatePlan } from './plans-api';
import { FormFooter } from '../../components/ui/form-footer';
import { formatDate } from '../../lib/format-date';

interface TabProps {
  plan: AdminPlanItem;
}

const TABS: { id: string; icon: LucideIcon; Component: (props: TabProps) => React.ReactNode }[] = [
  { id: 'subscribers', icon: Users, Component: SubscribersTab },
  { id: 'settings', icon: Settings2, Component: SettingsTab },
  { id: 'delete', icon: Trash2, Component: DeleteTab },
];

/** /admin/plan/{id}/{fixed|metered}/{tab}: one plan, in the description's three tabs. */
export function PlanPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [variant, tabId] = useLocation().pathname.split('/').slice(-2);
  const tab = TABS.find((entry) => entry.id === tabId) ?? TABS[0]!;
  const plan = useQuery({ queryKey: planKeys.plan(id), queryFn: () => fetchPlan(id) });
  const type = plan.data?.data.attributes.type;
  // An address with the other variant (typed or old) goes to the plan's own.
  if (type && variant !== type) return <Navigate to={`/admin/plan/${id}/${type}/${tab.id}`} replace />;

  return (
    <section className="flex flex-col gap-6">
      <Link
        to="/admin/plans"
        className="flex w-fit items-center gap-1 text-sm font-medium text-muted hover:text-ink"
      >
        <ChevronLeft className="size-4" aria-hidden />
        {t('plans.back_to_plans')}
      </Link>
      {!plan.data ? (
        <>
          <AdminHeader title={t(`pages.admin_plan_${tab.id}`)} />
          <LoadState failed={plan.isError} />
        </>
      ) : (
        <>
          <AdminHeader title={plan.data.data.attributes.name}>
            <PlanStatusBadge status={plan.data.data.attributes.status} />
          </AdminHeader>
          <p className="-mt-3 flex flex-wrap gap-x-3 text-sm text-muted">
            <span>{t(`plans.type.${plan.data.data.attributes.type}`)}</span>
            <span className="font-medium text-ink tabular-nums">
              <PlanPrice plan={plan.data.data.attributes} />
            </span>
          </p>
          <LinkTabs
            label={t('plans.tabs')}
            tabs={TABS.map(({ id: tabName, icon }) => ({
              to: `/admin/plan/${id}/${type}/${tabName}`,
              label: t(`plans.tab.${tabName}`),
              icon,
              danger: tabName === 'delete',
            }))}
          />
          <Card className="p-5 sm:p-6">
            <tab.Component plan={plan.data.data} />
          </Card>
        </>
      )}
    </section>
  );
}

function SubscribersTab({ plan }: TabProps) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const subscribers = useQuery({
    queryKey: planKeys.subscribers(plan.id, page),
    queryFn: () => fetchSubscribers(plan.id, page),
  });
  if (!subscribers.data) return <LoadState failed={subscribers.isError} />;
  if (subscribers.data.data.length === 0) {
    return (
      <EmptyState
        icon={Users}
        title={t('plans.subscribers_none_title')}
        body={t('plans.subscribers_none_body')}
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ul className="divide-y divide-line">
        {subscribers.data.data.map((subscriber) => (
          <li key={subscriber.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <Link
                to={`/admin/user/${subscriber.user.id}/subscription`}
                className="font-semibold hover:underline"
              >
                {subscriber.user.name}
              </Link>
              <p className="truncate text-xs text-muted">{subscriber.user.email}</p>
            </div>
            <p className="text-xs text-muted">
              {t(`plans.subscription_status.${subscriber.status}`)} ·{' '}
              {formatDate(subscriber.created_at, i18n.language)}
            </p>
          </li>
        ))}
      </ul>
      <Pager paginate={subscribers.data.meta.paginate} onPage={setPage} />
    </div>
  );
}

function SettingsTab({ plan }: TabProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { attributes } = plan;
  const [values, setValues] = useState({ name: attributes.name, description: attributes.description });
  const [features, setFeatures] = useState(
    attributes.type === 'fixed'
      ? {
          max_storage_amount: String(attributes.features.max_storage_amount),
          max_team_members: String(attributes.features.max_team_members),
        }
      : null,
  );
  const form = useApiForm(
    () => updatePlan(plan.id, { ...values, ...(features ? { features: featuresBody(features) } : {}) }),
    async (updated) => {
      client.setQueryData(planKeys.plan(plan.id), updated);
      await client.invalidateQueries({ queryKey: planKeys.all });
      pushToast('success', t('plans.saved'));
    },
  );

  return (
    <>
      <TabHeading title={t('plans.tab.settings')} lead={t('plans.settings_lead')} />
      <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
        <InputField
          className="sm:col-span-2"
          label={t('plans.field_name')}
          value={values.name}
          error={form.fieldErrors.name}
          onChange={(event) => setValues({ ...values, name: event.target.value })}
        />
        <TextareaField
          className="sm:col-span-2"
          label={t('plans.field_description')}
          rows={3}
          value={values.description}
          error={form.fieldErrors.description}
          onChange={(event) => setValues({ ...values, description: event.target.value })}
        />
        {features && <FeatureFields values={features} onChange={setFeatures} errors={form.fieldErrors} />}
        {attributes.type === 'metered' && <MetersSummary plan={attributes} />}
        <FormFooter error={form.formError}>
          <Button type="submit" loading={form.submitting}>
            {t('plans.save')}
          </Button>
        </FormFooter>
      </form>
    </>
  );
}

/** A metered plan's tiers, read only: the price is set when the plan is made. */
function MetersSummary({ plan }: { plan: Extract<AdminPlanItem['attributes'], { type: 'metered' }> }) {
  const { t, i18n } = useTranslation();
  const money = (amount: string) => formatMoney(amount, plan.currency, i18n.language);
  return (
    <div className="flex flex-col gap-3 sm:col-span-2">
      <p className="text-xs text-muted">{t('plans.price_fixed_hint')}</p>
      {plan.meters.map((meter) => (
        <div key={meter.key} className="rounded-2xl border border-line p-4">
          <p className="mb-2 font-semibold">
            {t(`plans.meter.${meter.key}`)}{' '}
            <span className="text-xs font-normal text-muted">{t(`plans.aggregate.${meter.aggregate}`)}</span>
          </p>
          <ul className="flex flex-col gap-1 text-sm tabular-nums">
            {meter.tiers.map((tier) => (
              <li key={tier.first_unit} className="flex flex-wrap justify-between gap-2">
                <span className="text-muted">
                  {tier.last_unit === null
                    ? t('plans.units_from', { first: tier.first_unit })
                    : t('plans.units_range', { first: tier.first_unit, last: tier.last_unit })}
                </span>
                <span>
                  {t('plans.tier_price', { per_unit: money(tier.per_unit), flat_fee: money(tier.flat_fee) })}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function DeleteTab({ plan }: TabProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const held = plan.meta.subscribers > 0;
  const form = useApiForm(
    () => deletePlan(plan.id),
    async (archived) => {
      if (archived) client.setQueryData(planKeys.plan(plan.id), archived);
      else client.removeQueries({ queryKey: planKeys.plan(plan.id) });
      await client.invalidateQueries({ queryKey: planKeys.all });
      pushToast('success', t(archived ? 'plans.archived' : 'plans.deleted', { name: plan.attributes.name }));
      if (!archived) await navigate('/admin/plans');
    },
  );

  return (
    <>
      <TabHeading title={t('plans.tab.delete')} lead={t(held ? 'plans.archive_lead' : 'plans.delete_lead')} />
      <div className="mb-5 flex items-start gap-3 rounded-2xl border border-danger/30 bg-danger-soft p-4 text-sm">
        <ShieldAlert className="mt-0.5 size-5 shrink-0 text-danger" aria-hidden />
        <p>
          {held
            ? t('plans.archive_warning', { count: plan.meta.subscribers })
            : t('plans.delete_warning', { name: plan.attributes.name })}
        </p>
      </div>
      {form.formError && (
        <p role="alert" className="mb-3 text-sm text-danger">
          {form.formError}
        </p>
      )}
      <Button
        variant="danger"
        loading={form.submitting}
        disabled={plan.attributes.status === 'archived'}
        onClick={() => void form.onSubmit()}
      >
        {t(held ? 'plans.archive_submit' : 'plans.delete_submit')}
      </Button>
    </>
  );
}
