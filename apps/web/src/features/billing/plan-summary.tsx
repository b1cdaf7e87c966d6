import type { PlanItem } from '@atelier/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { formatMoney } from './format-money';

/** "$19.99 per month" for a fixed plan; the meters it charges for, for a metered one. */
export function PlanPrice({ plan }: { plan: PlanItem['attributes'] }) {
  const { t, i18n } = useTranslation();
  if (plan.type === 'metered') {
    return (
      <>
        {t('plans.metered_price', {
          meters: plan.meters.map((meter) => t(`plans.meter.${meter.key}`)).join(', '),
        })}
      </>
    );
  }
  return (
    <>
      {t(`plans.price_per.${plan.interval}`, {
        price: formatMoney(plan.amount, plan.currency, i18n.language),
      })}
    </>
  );
}

export function PlanStatusBadge({ status }: { status: PlanItem['attributes']['status'] }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold',
        status === 'active' ? 'bg-success-soft text-success' : 'bg-surface-2 text-muted',
      )}
    >
      {t(`plans.status.${status}`)}
    </span>
  );
}
