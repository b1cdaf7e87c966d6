import { CreditBody, SubscriptionStatus, type AdminUserDetail } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, Wallet } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { InputField } from '../../components/ui/field';
import { FormFooter } from '../../components/ui/form-footer';
import { TabHeading } from '../../components/ui/link-tabs';
import { validateWith, useApiForm } from '../../lib/use-api-form';
import { adminKeys } from '../admin/users/admin-users-api';
import { useConfig } from '../session/session-queries';
import { billingKeys, creditBalance } from './billing-api';
import { formatDate } from '../../lib/format-date';
import { SubscriptionStatusBadge } from './billing-parts';

/** The admin's user page, subscription tab: the plan the person holds and, when metered, a credit. */
export function AdminUserSubscription({ user }: { user: AdminUserDetail }) {
  const { t, i18n } = useTranslation();
  const { subscriptionType } = useConfig();
  const subscription = user.meta.subscription;
  const status = SubscriptionStatus.safeParse(subscription?.status);
  return (
    <div className="flex flex-col gap-8">
      <div>
        <TabHeading title={t('admin_users.tab.subscription')} lead={t('billing_ui.admin_user_lead')} />
        {subscription ? (
          <dl className="grid gap-3 text-sm sm:grid-cols-3" data-testid="admin-user-subscription">
            <div className="flex flex-col gap-0.5 rounded-xl bg-surface-2/70 px-4 py-3">
              <dt className="text-xs text-muted">{t('billing_ui.column_plan')}</dt>
              <dd className="font-semibold">{subscription.plan}</dd>
            </div>
            <div className="flex flex-col items-start gap-1 rounded-xl bg-surface-2/70 px-4 py-3">
              <dt className="text-xs text-muted">{t('billing_ui.column_status')}</dt>
              <dd>
                {status.success ? <SubscriptionStatusBadge status={status.data} /> : subscription.status}
              </dd>
            </div>
            <div className="flex flex-col gap-0.5 rounded-xl bg-surface-2/70 px-4 py-3">
              <dt className="text-xs text-muted">{t('billing_ui.column_renews')}</dt>
              <dd className="font-semibold tabular-nums">
                {subscription.renews_at ? formatDate(subscription.renews_at, i18n.language) : '—'}
              </dd>
            </div>
          </dl>
        ) : (
          <EmptyState
            icon={CreditCard}
            title={t('admin_users.subscription_none_title')}
            body={t(
              subscriptionType === 'none'
                ? 'admin_users.subscription_none_body'
                : 'billing_ui.admin_user_none_body',
            )}
          />
        )}
      </div>
      {subscriptionType === 'metered' && <CreditForm userId={user.data.id} />}
    </div>
  );
}

const EMPTY = { amount: '', note: '' };

function CreditForm({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [values, setValues] = useState(EMPTY);
  const form = useApiForm(
    () => creditBalance(userId, validateWith(CreditBody, values)),
    async () => {
      setValues(EMPTY);
      pushToast('success', t('billing_ui.credited'));
      await Promise.all([
        client.invalidateQueries({ queryKey: adminKeys.user(userId) }),
        client.invalidateQueries({ queryKey: billingKeys.all }),
      ]);
    },
  );
  return (
    <div className="border-t border-line pt-6">
      <TabHeading title={t('billing_ui.credit_title')} lead={t('billing_ui.credit_lead')} />
      <form className="grid gap-5 sm:grid-cols-2" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('billing_ui.credit_amount')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="10.00"
          value={values.amount}
          error={form.fieldErrors.amount}
          onChange={(event) => setValues({ ...values, amount: event.target.value.replace(',', '.') })}
        />
        <InputField
          label={t('billing_ui.credit_note')}
          placeholder={t('billing_ui.credit_note_placeholder')}
          value={values.note}
          error={form.fieldErrors.note}
          onChange={(event) => setValues({ ...values, note: event.target.value })}
        />
        <FormFooter error={form.formError}>
          <Button type="submit" loading={form.submitting}>
            <Wallet className="size-4" aria-hidden />
            {t('billing_ui.credit_submit')}
          </Button>
        </FormFooter>
      </form>
    </div>
  );
}
