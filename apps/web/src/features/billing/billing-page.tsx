import {
  BalanceCheckoutBody,
  type Amount,
  type PaymentDriver,
  type PlanItem,
  type SubscriptionDetail,
  type SubscriptionResource,
} from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ArrowLeftRight,
  BellRing,
  CircleCheck,
  CreditCard,
  HardDrive,
  Plus,
  ReceiptText,
  ShieldAlert,
  Users,
  Wallet,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { askConfirm, pushToast, withSpinner } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { EmptyState } from '../../components/ui/empty-state';
import { InputField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { cn } from '../../lib/cn';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { QueryLoader } from '../admin/settings/settings-parts';
import { useConfig, useSession } from '../session/session-queries';
import {
  balanceCheckout,
  billingKeys,
  cancelSubscription,
  checkout,
  fetchAvailablePlans,
  fetchDetail,
  fetchTransactions,
  setBillingAlert,
  swapPlan,
} from './billing-api';
import { BillingHeader } from './billing-header';
import { formatDate } from '../../lib/format-date';
import { driverName, SubscriptionStatusBadge } from './billing-parts';
import { CheckoutDialog } from './checkout-dialog';
import { formatMoney } from './format-money';
import { PlanPrice } from './plan-summary';
import { TransactionsTable } from './transactions-table';
import { useBillingUpdates } from './use-billing-updates';

type Detail = SubscriptionDetail['data'];
type FixedPlan = Extract<PlanItem['attributes'], { type: 'fixed' }>;

const HISTORY_SIZE = 5;

/** /user/settings/billing: the plan and its payments, or the plans to choose from; a metered balance. */
export function BillingPage() {
  const { t } = useTranslation();
  const { subscriptionType } = useConfig();
  useBillingUpdates();
  const detail = useQuery({
    queryKey: billingKeys.detail,
    queryFn: fetchDetail,
    enabled: subscriptionType !== 'none',
  });

  return (
    <section className="flex max-w-5xl flex-col gap-6">
      <BillingHeader title={t('pages.billing')} lead={t(`billing_ui.lead_${subscriptionType}`)} />
      <CheckoutReturn />
      {subscriptionType === 'none' ? (
        <EmptyState icon={CreditCard} title={t('billing_ui.off_title')} body={t('billing_ui.off_body')} />
      ) : (
        <QueryLoader query={detail}>
          {({ data }) =>
            subscriptionType === 'metered' ? <MeteredBilling detail={data} /> : <FixedBilling detail={data} />
          }
        </QueryLoader>
      )}
    </section>
  );
}

/**
 * Back from the provider's page (`?checkout=success|cancelled`): the payment itself is known only
 * once the provider's webhook arrives, which the page then shows live.
 */
function CheckoutReturn() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const outcome = params.get('checkout');
  if (outcome !== 'success' && outcome !== 'cancelled') return null;
  return (
    <div
      role="status"
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 rounded-2xl px-4 py-3 text-sm',
        outcome === 'success' ? 'bg-success-soft text-success' : 'bg-surface-2 text-muted',
      )}
    >
      <span className="flex items-center gap-2">
        {outcome === 'success' ? <CircleCheck className="size-4 shrink-0" aria-hidden /> : null}
        {t(`billing_ui.checkout_${outcome}`)}
      </span>
      <Button size="sm" variant="ghost" onClick={() => setParams({}, { replace: true })}>
        {t('billing_ui.dismiss')}
      </Button>
    </div>
  );
}

/** A subscription that still gives its plan (active, or cancelled until its period ends). */
const holds = (subscription: SubscriptionResource | null): subscription is SubscriptionResource =>
  subscription !== null && subscription.status !== 'completed';

function FixedBilling({ detail }: { detail: Detail }) {
  const plans = useQuery({ queryKey: billingKeys.plans, queryFn: fetchAvailablePlans });
  const { subscription } = detail;
  return (
    <>
      {holds(subscription) ? (
        <SubscriptionCard subscription={subscription} plans={plans.data?.data ?? []} />
      ) : (
        <QueryLoader query={plans}>
          {({ data }) => <PlanCards plans={data} drivers={detail.drivers} />}
        </QueryLoader>
      )}
      <PaymentHistory />
    </>
  );
}

function PlanCards({ plans, drivers }: { plans: PlanItem[]; drivers: PaymentDriver[] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [chosen, setChosen] = useState<PlanItem | null>(null);
  const fixed = plans.filter(
    (plan): plan is PlanItem & { attributes: FixedPlan } => plan.attributes.type === 'fixed',
  );
  if (fixed.length === 0) {
    return (
      <EmptyState
        icon={CreditCard}
        title={t('billing_ui.plans_none_title')}
        body={
          // The server offers no plan while no provider can take the money, whether plans exist or not.
          drivers.length === 0 ? t('billing_ui.plans_unpayable_body') : t('billing_ui.plans_none_body')
        }
      />
    );
  }
  return (
    <>
      <div className="flex flex-col gap-1">
        <h2 className="font-display text-xl font-semibold">{t('billing_ui.choose_plan')}</h2>
        <p className="text-sm text-muted">{t('billing_ui.choose_plan_lead')}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {fixed.map((plan) => (
          <PlanCard key={plan.id} plan={plan.attributes} onSubscribe={() => setChosen(plan)} />
        ))}
      </div>
      {chosen && (
        <CheckoutDialog
          open
          onOpenChange={(open) => !open && setChosen(null)}
          title={t('billing_ui.subscribe_title', { plan: chosen.attributes.name })}
          description={<PlanPrice plan={chosen.attributes} />}
          drivers={drivers}
          submitLabel={t('billing_ui.continue_to_payment')}
          start={(driver) => checkout({ plan_id: chosen.id, driver })}
          metadata={{ user_id: user?.id ?? '', plan_id: chosen.id }}
        />
      )}
    </>
  );
}

function PlanCard({ plan, onSubscribe }: { plan: FixedPlan; onSubscribe: () => void }) {
  const { t, i18n } = useTranslation();
  const members = plan.features.max_team_members;
  return (
    <Card className="flex flex-col gap-5 p-6" data-testid="pricing-card">
      <div className="flex flex-col gap-1">
        <h3 className="font-display text-lg font-semibold">{plan.name}</h3>
        <p className="flex items-baseline gap-1.5">
          <span className="font-display text-3xl font-semibold tracking-tight tabular-nums">
            {formatMoney(plan.amount, plan.currency, i18n.language)}
          </span>
          <span className="text-sm text-muted">{t(`billing_ui.per.${plan.interval}`)}</span>
        </p>
      </div>
      <ul className="flex flex-col gap-2 text-sm">
        <li className="flex items-center gap-2">
          <HardDrive className="size-4 text-accent" aria-hidden />
          {t('billing_ui.feature_storage', {
            amount: plan.features.max_storage_amount.toLocaleString(i18n.language),
          })}
        </li>
        <li className="flex items-center gap-2">
          <Users className="size-4 text-accent" aria-hidden />
          {members === -1
            ? t('billing_ui.feature_members_unlimited')
            : t('billing_ui.feature_members', { count: members })}
        </li>
      </ul>
      {plan.description && <p className="text-sm leading-relaxed text-muted">{plan.description}</p>}
      <Button className="mt-auto" onClick={onSubscribe}>
        {t('billing_ui.subscribe')}
      </Button>
    </Card>
  );
}

function SubscriptionCard({
  subscription,
  plans,
}: {
  subscription: SubscriptionResource;
  plans: PlanItem[];
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [swapping, setSwapping] = useState(false);
  const plan = subscription.plan.attributes;
  const date = (iso: string | null) => (iso ? formatDate(iso, i18n.language) : '—');
  const periodEnd = subscription.ends_at ?? subscription.renews_at;
  const others = plans.filter(
    (other) => other.id !== subscription.plan.id && other.attributes.type === plan.type,
  );

  const cancel = async () => {
    const confirmed = await askConfirm({
      title: t('billing_ui.cancel_title'),
      message: t('billing_ui.cancel_message', { date: date(periodEnd) }),
      confirmLabel: t('billing_ui.cancel_confirm'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await withSpinner(cancelSubscription);
      pushToast('success', t('billing_ui.cancelled', { date: date(periodEnd) }));
    } catch {
      pushToast('danger', t('billing_ui.cancel_failed'));
    }
    await client.invalidateQueries({ queryKey: billingKeys.all });
  };

  return (
    <Card className="flex flex-col gap-6 p-6 sm:p-8" data-testid="subscription-card">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-semibold tracking-[0.14em] text-muted uppercase">
            {t('billing_ui.your_plan')}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="font-display text-2xl font-semibold">{plan.name}</h2>
            <SubscriptionStatusBadge status={subscription.status} />
          </div>
          <p className="text-sm font-medium tabular-nums">
            <PlanPrice plan={plan} />
          </p>
        </div>
        {subscription.status === 'active' && (
          <div className="flex flex-wrap gap-2">
            {others.length > 0 && (
              <Button variant="secondary" onClick={() => setSwapping(true)}>
                <ArrowLeftRight className="size-4" aria-hidden />
                {t('billing_ui.swap')}
              </Button>
            )}
            <Button variant="ghost" className="text-danger" onClick={() => void cancel()}>
              {t('billing_ui.cancel')}
            </Button>
          </div>
        )}
      </div>
      {subscription.status === 'cancelled' && (
        <p className="rounded-xl bg-accent-soft px-4 py-3 text-sm">
          {t('billing_ui.active_until', { date: date(periodEnd) })}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:gap-4 lg:grid-cols-4">
        <Fact
          label={t(subscription.status === 'active' ? 'billing_ui.renews_on' : 'billing_ui.ends_on')}
          value={date(periodEnd)}
        />
        <Fact
          label={t('billing_ui.provider')}
          value={driverName(subscription.driver) || t('billing_ui.balance')}
        />
        {plan.type === 'fixed' && (
          <>
            <Fact
              label={t('billing_ui.storage')}
              value={t('billing_ui.gigabytes', {
                amount: plan.features.max_storage_amount.toLocaleString(i18n.language),
              })}
            />
            <Fact
              label={t('billing_ui.team_members')}
              value={
                plan.features.max_team_members === -1
                  ? t('billing_ui.unlimited')
                  : plan.features.max_team_members.toLocaleString(i18n.language)
              }
            />
          </>
        )}
      </dl>
      {swapping && (
        <SwapDialog current={subscription.plan.id} plans={others} onClose={() => setSwapping(false)} />
      )}
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-xl bg-surface-2/70 px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function SwapDialog({
  current,
  plans,
  onClose,
}: {
  current: string;
  plans: PlanItem[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [planId, setPlanId] = useState(plans[0]?.id ?? current);
  const [sending, setSending] = useState(false);
  const swap = async () => {
    setSending(true);
    try {
      const answer = await swapPlan(planId);
      if (answer.meta?.approve_url) {
        window.location.assign(answer.meta.approve_url);
        return;
      }
      await client.invalidateQueries({ queryKey: billingKeys.all });
      pushToast('success', t('billing_ui.swapped'));
      onClose();
    } catch {
      pushToast('danger', t('billing_ui.swap_failed'));
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('billing_ui.swap_title')}
      description={t('billing_ui.swap_lead')}
      className="max-w-lg"
    >
      <div className="mt-5 flex flex-col gap-5">
        <ChoiceCards
          label={t('billing_ui.swap_to')}
          value={planId}
          onChange={setPlanId}
          choices={plans.map((plan) => ({
            value: plan.id,
            title: plan.attributes.name,
            description:
              plan.attributes.type === 'fixed'
                ? t(`plans.price_per.${plan.attributes.interval}`, {
                    price: formatMoney(plan.attributes.amount, plan.attributes.currency, i18n.language),
                  })
                : plan.attributes.description,
          }))}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('billing_ui.close')}
          </Button>
          <Button loading={sending} onClick={() => void swap()}>
            {t('billing_ui.swap_submit')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

function PaymentHistory() {
  const { t } = useTranslation();
  const transactions = useQuery({
    queryKey: billingKeys.transactions(1),
    queryFn: () => fetchTransactions(1),
  });
  const items = transactions.data?.data.slice(0, HISTORY_SIZE) ?? [];
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-end justify-between gap-3">
        <h2 className="font-display text-xl font-semibold">{t('billing_ui.history')}</h2>
        {items.length > 0 && (
          <Link to="/user/settings/transaction" className="text-sm font-medium text-accent hover:underline">
            {t('billing_ui.history_all')}
          </Link>
        )}
      </div>
      {transactions.isSuccess && items.length === 0 ? (
        <p className="flex items-center gap-2 rounded-2xl border border-dashed border-line px-4 py-6 text-sm text-muted">
          <ReceiptText className="size-4" aria-hidden />
          {t('billing_ui.history_none')}
        </p>
      ) : (
        items.length > 0 && <TransactionsTable transactions={items} />
      )}
    </div>
  );
}

/**
 * The billing alert: a notification when this period's estimate reaches the amount. Edited in place;
 * the server checks the amount against the currency and answers 422 on the field.
 */
function AlertSetting({ alert, currency }: { alert: Amount | null; currency: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState(alert?.amount ?? '');
  const [removing, setRemoving] = useState(false);
  const form = useApiForm(
    () => setBillingAlert(amount.trim()),
    async () => {
      setEditing(false);
      pushToast('success', t('billing_ui.alert_saved'));
      await client.invalidateQueries({ queryKey: billingKeys.detail });
    },
  );
  const remove = async () => {
    setRemoving(true);
    try {
      await setBillingAlert(null);
      setAmount('');
      setEditing(false);
      pushToast('success', t('billing_ui.alert_removed'));
      await client.invalidateQueries({ queryKey: billingKeys.detail });
    } catch {
      pushToast('danger', t('billing_ui.alert_failed'));
    } finally {
      setRemoving(false);
    }
  };

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
        <p className="flex items-center gap-2" data-testid="billing-alert">
          <BellRing className="size-3.5" aria-hidden />
          {alert
            ? t('billing_ui.alert_at', { amount: formatMoney(alert.amount, alert.currency, i18n.language) })
            : t('billing_ui.alert_none')}
        </p>
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          {t(alert ? 'billing_ui.alert_change' : 'billing_ui.alert_set')}
        </Button>
      </div>
    );
  }
  return (
    <form className="flex flex-col gap-3 rounded-xl bg-surface-2/70 p-3" onSubmit={form.onSubmit} noValidate>
      <InputField
        label={t('billing_ui.alert_amount', { currency })}
        hint={t('billing_ui.alert_hint')}
        inputMode="decimal"
        autoComplete="off"
        autoFocus
        value={amount}
        error={form.fieldErrors.amount ?? form.formError ?? undefined}
        onChange={(event) => setAmount(event.target.value.replace(',', '.'))}
      />
      <div className="flex flex-wrap justify-end gap-2">
        {alert && (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            className="mr-auto text-danger"
            loading={removing}
            onClick={() => void remove()}
          >
            {t('billing_ui.alert_remove')}
          </Button>
        )}
        <Button type="button" size="sm" variant="secondary" onClick={() => setEditing(false)}>
          {t('billing_ui.close')}
        </Button>
        <Button type="submit" size="sm" loading={form.submitting}>
          {t('billing_ui.alert_save')}
        </Button>
      </div>
    </form>
  );
}

function MeteredBilling({ detail }: { detail: Detail }) {
  const { t, i18n } = useTranslation();
  const { user, resource } = useSession();
  const [topUp, setTopUp] = useState(false);
  const [amount, setAmount] = useState('');
  const currency = detail.balance?.currency ?? detail.usage?.currency ?? 'USD';
  const money = (value: string) => formatMoney(value, currency, i18n.language);
  const { usage, subscription } = detail;
  const reason = resource?.meta.restrictions.reason;

  return (
    <>
      {reason && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-2xl border border-danger/30 bg-danger-soft p-4 text-sm"
          data-testid="billing-restricted"
        >
          <ShieldAlert className="size-5 shrink-0 text-danger" aria-hidden />
          <p className="min-w-0 flex-1">
            <span className="font-semibold">{t('restriction.warning')}</span> {reason}{' '}
            {t('billing_ui.restricted_hint')}
          </p>
          <Button size="sm" variant="danger" onClick={() => setTopUp(true)}>
            {t('billing_ui.top_up')}
          </Button>
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
        <Card className="flex flex-col gap-5 p-6" data-testid="balance-card">
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-medium text-muted">{t('billing_ui.balance')}</p>
            <span className="grid size-9 place-items-center rounded-xl bg-accent-soft text-accent">
              <Wallet className="size-[18px]" aria-hidden />
            </span>
          </div>
          <p
            className="font-display text-4xl font-semibold tracking-tight tabular-nums"
            data-testid="balance"
          >
            {money(detail.balance?.amount ?? '0')}
          </p>
          {subscription && (
            <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
              {subscription.plan.attributes.name}
              <SubscriptionStatusBadge status={subscription.status} />
            </p>
          )}
          <Button className="mt-auto w-full sm:w-fit" onClick={() => setTopUp(true)}>
            <Plus className="size-4" aria-hidden />
            {t('billing_ui.top_up')}
          </Button>
        </Card>
        <Card className="flex flex-col gap-4 p-6" data-testid="usage-card">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="font-semibold">{t('billing_ui.usage_title')}</h2>
            {usage && (
              <p className="text-xs text-muted">
                {t('billing_ui.period', {
                  start: formatDate(usage.period_start, i18n.language),
                  end: formatDate(usage.period_end, i18n.language),
                })}
              </p>
            )}
          </div>
          {usage && usage.items.length > 0 ? (
            <ul className="flex flex-col divide-y divide-line text-sm">
              {usage.items.map((item) => (
                <li key={item.key} className="flex items-center justify-between gap-3 py-2.5">
                  <span>
                    <span className="font-medium">{t(`plans.meter.${item.key}`)}</span>{' '}
                    {item.key !== 'flat_fee' && (
                      <span className="text-muted">
                        {t(`billing_ui.quantity.${item.key}`, {
                          count: item.quantity,
                          quantity: item.quantity.toLocaleString(i18n.language, { maximumFractionDigits: 2 }),
                        })}
                      </span>
                    )}
                  </span>
                  <span className="font-medium tabular-nums">{money(item.amount)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">{t('billing_ui.usage_none')}</p>
          )}
          <div className="mt-auto flex items-center justify-between gap-3 border-t border-line pt-3">
            <span className="text-sm font-semibold">{t('billing_ui.estimate')}</span>
            <span className="font-display text-xl font-semibold tabular-nums" data-testid="estimate">
              {money(usage?.total ?? '0')}
            </span>
          </div>
          {detail.alert !== undefined && <AlertSetting alert={detail.alert} currency={currency} />}
        </Card>
      </div>
      <PaymentHistory />
      <CheckoutDialog
        open={topUp}
        onOpenChange={setTopUp}
        title={t('billing_ui.top_up_title')}
        description={t('billing_ui.top_up_lead')}
        drivers={detail.drivers}
        submitLabel={t('billing_ui.continue_to_payment')}
        start={(driver) => balanceCheckout(validateWith(BalanceCheckoutBody, { amount, driver }))}
        metadata={{ user_id: user?.id ?? '', type: 'balance' }}
        fields={(errors) => (
          <InputField
            label={t('billing_ui.top_up_amount', { currency })}
            inputMode="decimal"
            autoComplete="off"
            placeholder="25.00"
            value={amount}
            error={errors.amount}
            onChange={(event) => setAmount(event.target.value.replace(',', '.'))}
          />
        )}
      />
    </>
  );
}
