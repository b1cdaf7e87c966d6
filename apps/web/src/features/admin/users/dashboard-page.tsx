import type { AdminDashboard, HealthState } from '@atelier/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowRight,
  Banknote,
  HardDrive,
  ReceiptText,
  ScrollText,
  UserPlus,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { RoleBadge } from '../../../components/role-badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../../files/item-kind';
import { AdminHeader, LoadState } from './admin-header';
import { adminKeys, fetchDashboard } from './admin-users-api';
import { MonthlyChart } from './monthly-chart';
import { formatDate } from '../../../lib/format-date';

const HEALTH_DOT: Record<HealthState, string> = {
  ok: 'bg-success',
  failing: 'bg-danger',
  off: 'bg-muted/50',
};

function StatCard({
  icon: Icon,
  label,
  value,
  detail,
}: {
  icon: LucideIcon;
  label: string;
  value: string;
  detail: string;
}) {
  return (
    <Card className="flex flex-col gap-2 p-4 sm:gap-3 sm:p-5" data-testid="stat-card">
      <div className="flex items-center justify-between gap-2">
        <p className="truncate text-sm font-medium text-muted">{label}</p>
        <span className="grid size-8 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent sm:size-9">
          <Icon className="size-[18px]" aria-hidden />
        </span>
      </div>
      <p className="truncate font-display text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">
        {value}
      </p>
      <p className="text-xs text-muted">{detail}</p>
    </Card>
  );
}

/** /admin/dashboard: the instance at a glance, with the newest accounts and payments. */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const dashboard = useQuery({ queryKey: adminKeys.dashboard, queryFn: fetchDashboard });

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_dashboard')} lead={t('admin_users.dashboard_lead')}>
        <Button asChild variant="secondary">
          <Link to="/admin/audit">
            <ScrollText className="size-4" aria-hidden />
            {t('admin_users.audit_link')}
          </Link>
        </Button>
      </AdminHeader>
      {dashboard.isSuccess ? (
        <DashboardContent data={dashboard.data} locale={i18n.language} />
      ) : (
        <LoadState failed={dashboard.isError} />
      )}
    </section>
  );
}

function DashboardContent({ data, locale }: { data: AdminDashboard; locale: string }) {
  const { t } = useTranslation();
  const [chart, setChart] = useState<'signups' | 'revenue'>('signups');
  const number = (value: number) => value.toLocaleString(locale);
  // Without billing there is no currency: the amounts (all zero) are plain numbers.
  const { currency } = data.revenue;
  const money = (amount: number) =>
    amount.toLocaleString(locale, currency ? { style: 'currency', currency, maximumFractionDigits: 0 } : {});
  const date = (iso: string) => formatDate(iso, locale);
  const chartValues =
    chart === 'signups'
      ? data.signups_by_month.map((entry) => ({ month: entry.month, value: entry.count }))
      : data.revenue.by_month.map((entry) => ({ month: entry.month, value: Number(entry.amount) }));

  return (
    <>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          icon={Users}
          label={t('admin_users.stat_users')}
          value={number(data.users.total)}
          detail={t('admin_users.stat_admins', { count: data.users.admins })}
        />
        <StatCard
          icon={UserPlus}
          label={t('admin_users.stat_new')}
          value={number(data.users.new_30_days)}
          detail={t('admin_users.stat_new_detail')}
        />
        <StatCard
          icon={HardDrive}
          label={t('admin_users.stat_storage')}
          value={formatBytes(data.storage.used, locale)}
          detail={t('admin_users.stat_files', { count: data.storage.files })}
        />
        <StatCard
          icon={Banknote}
          label={t('admin_users.stat_revenue')}
          value={money(Number(data.revenue.last_30_days))}
          detail={t('admin_users.stat_revenue_detail')}
        />
      </div>

      <Card className="flex flex-col gap-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">{t('admin_users.chart_title')}</h2>
          <div
            role="tablist"
            aria-label={t('admin_users.chart_title')}
            className="flex rounded-xl bg-surface-2 p-1"
          >
            {(['signups', 'revenue'] as const).map((kind) => (
              <button
                key={kind}
                type="button"
                role="tab"
                aria-selected={chart === kind}
                onClick={() => setChart(kind)}
                className={cn(
                  'cursor-pointer rounded-lg px-3 py-1.5 text-sm font-medium text-muted transition-colors',
                  chart === kind && 'bg-surface text-ink shadow-soft',
                )}
              >
                {t(`admin_users.chart_${kind}`)}
              </button>
            ))}
          </div>
        </div>
        <MonthlyChart
          values={chartValues}
          format={chart === 'signups' ? (value) => number(Math.round(value)) : money}
          label={t(`admin_users.chart_${chart}_label`)}
        />
        {chart === 'revenue' && data.latest_transactions.length === 0 && (
          <p className="text-sm text-muted">{t('admin_users.revenue_none')}</p>
        )}
      </Card>

      <div className="grid gap-6 xl:grid-cols-2">
        <Card className="flex flex-col">
          <div className="flex items-center justify-between gap-3 border-b border-line px-5 py-4">
            <h2 className="font-semibold">{t('admin_users.newest_users')}</h2>
            <Link
              to="/admin/users"
              className="flex items-center gap-1 text-sm font-medium text-accent hover:underline"
            >
              {t('admin_users.all_users')}
              <ArrowRight className="size-4" aria-hidden />
            </Link>
          </div>
          <ul className="divide-y divide-line" data-testid="newest-users">
            {data.latest_users.map((user) => (
              <li key={user.id}>
                <Link
                  to={`/admin/user/${user.id}/details`}
                  className="flex items-center gap-3 px-5 py-3 transition-colors hover:bg-surface-2"
                >
                  <Avatar
                    person={{ ...user, avatar: { xs: user.avatar, sm: user.avatar, md: user.avatar } }}
                    size={36}
                  />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-semibold">{user.name}</p>
                    <p className="truncate text-xs text-muted">{user.email}</p>
                  </div>
                  <div className="flex flex-col items-end gap-1">
                    <RoleBadge role={user.role} />
                    <span className="text-[11px] text-muted">{date(user.created_at)}</span>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </Card>

        <Card className="flex flex-col">
          <div className="border-b border-line px-5 py-4">
            <h2 className="font-semibold">{t('admin_users.newest_transactions')}</h2>
          </div>
          {data.latest_transactions.length === 0 ? (
            <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 py-12 text-center">
              <span className="grid size-12 place-items-center rounded-2xl bg-surface-2 text-muted">
                <ReceiptText className="size-6" aria-hidden />
              </span>
              <p className="font-semibold">{t('admin_users.transactions_empty_title')}</p>
              <p className="max-w-xs text-sm text-muted">{t('admin_users.transactions_empty_body')}</p>
            </div>
          ) : (
            <ul className="divide-y divide-line">
              {data.latest_transactions.map((transaction) => (
                <li
                  key={transaction.id}
                  className="flex items-center justify-between gap-3 px-5 py-3 text-sm"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium">{transaction.note}</p>
                    <p className="truncate text-xs text-muted">
                      {transaction.user?.name ?? '—'} · {date(transaction.created_at)}
                    </p>
                  </div>
                  <span className="font-semibold tabular-nums">
                    {Number(transaction.amount).toLocaleString(locale, {
                      style: 'currency',
                      currency: transaction.currency,
                    })}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Card
        className="flex flex-col gap-4 p-5 lg:flex-row lg:items-center lg:justify-between"
        data-testid="health-line"
      >
        <ul className="flex flex-wrap gap-2">
          {(Object.keys(data.health) as (keyof AdminDashboard['health'])[]).map((part) => {
            const { driver, state } = data.health[part];
            return (
              <li
                key={part}
                className="flex items-center gap-2 rounded-full border border-line px-3 py-1.5 text-xs"
                title={t(`admin_users.health_state.${state}`)}
              >
                <span className={cn('size-2 rounded-full', HEALTH_DOT[state])} aria-hidden />
                <span className="font-semibold">{t(`admin_users.health.${part}`)}</span>
                <span className="text-muted">{driver}</span>
                <span className="sr-only">{t(`admin_users.health_state.${state}`)}</span>
              </li>
            );
          })}
        </ul>
        <p className="text-xs text-muted tabular-nums">
          {t('admin_users.versions', {
            app: data.versions.app,
            node: data.versions.node,
            database: data.versions.database,
          })}
        </p>
      </Card>
    </>
  );
}
