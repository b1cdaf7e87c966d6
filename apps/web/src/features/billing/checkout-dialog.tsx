import type { CheckoutAnswer, PaymentDriver } from '@atelier/contracts';
import { CreditCard, ExternalLink, ShieldAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { Modal } from '../../components/ui/modal';
import { useApiForm } from '../../lib/use-api-form';
import { DRIVER_NAMES } from './billing-parts';
import { formatMoney } from './format-money';
import { openPaystack } from './paystack-inline';

interface CheckoutDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  drivers: PaymentDriver[];
  /** Fields before the provider's choice (the top-up's amount), with the server's messages. */
  fields?: (fieldErrors: Record<string, string>) => ReactNode;
  submitLabel: string;
  /** Asks the server for the checkout; a 422 lands on the fields. */
  start: (driver: PaymentDriver) => Promise<CheckoutAnswer>;
  /** What Paystack's webhook needs to know whose payment it is. */
  metadata: Record<string, string>;
}

/**
 * Pay with one of the allowed providers: Stripe and PayPal take the person to their page; Paystack
 * answers a reference for its inline form, which is loaded only when asked for.
 */
export function CheckoutDialog({
  open,
  onOpenChange,
  title,
  description,
  drivers,
  fields,
  submitLabel,
  start,
  metadata,
}: CheckoutDialogProps) {
  const { t } = useTranslation();
  const [driver, setDriver] = useState<PaymentDriver>(drivers[0] ?? 'stripe');
  const [paystack, setPaystack] = useState<CheckoutAnswer['data'] | null>(null);
  const form = useApiForm(
    () => start(driver),
    (answer) => {
      if (answer.data.url) window.location.assign(answer.data.url);
      else setPaystack(answer.data);
    },
  );

  const close = (next: boolean) => {
    if (!next) setPaystack(null);
    onOpenChange(next);
  };

  return (
    <Modal open={open} onOpenChange={close} title={title} description={description} className="max-w-lg">
      {paystack ? (
        <PaystackPanel answer={paystack} metadata={metadata} onDone={() => close(false)} />
      ) : (
        <form className="mt-5 flex flex-col gap-5" onSubmit={form.onSubmit} noValidate>
          {fields?.(form.fieldErrors)}
          {drivers.length === 0 ? (
            <p className="rounded-xl bg-surface-2 p-4 text-sm text-muted">{t('billing_ui.no_drivers')}</p>
          ) : (
            <ChoiceCards
              label={t('billing_ui.pay_with')}
              value={driver}
              onChange={setDriver}
              columns={drivers.length >= 3 ? 3 : 2}
              choices={drivers.map((value) => ({
                value,
                title: DRIVER_NAMES[value],
                description: t(`billing_ui.driver_hint.${value}`),
              }))}
            />
          )}
          {form.formError && (
            <p role="alert" className="text-sm text-danger">
              {form.formError}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => close(false)}>
              {t('billing_ui.close')}
            </Button>
            <Button type="submit" loading={form.submitting} disabled={drivers.length === 0}>
              <CreditCard className="size-4" aria-hidden />
              {submitLabel}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/**
 * Paystack's checkout as the server made it: the reference and amount to match the payment by, and
 * a button that loads Paystack's own form. The instance's content security policy or network may
 * refuse Paystack's script; the panel says so instead of failing silently.
 */
function PaystackPanel({
  answer,
  metadata,
  onDone,
}: {
  answer: CheckoutAnswer['data'];
  metadata: Record<string, string>;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<'idle' | 'opening' | 'refused' | 'cancelled' | 'paid'>('idle');
  const amount =
    answer.amount && answer.currency ? formatMoney(answer.amount, answer.currency, i18n.language) : '';
  const pay = async () => {
    setState('opening');
    try {
      setState(await openPaystack(answer, metadata));
    } catch {
      setState('refused');
    }
  };

  return (
    <div className="mt-5 flex flex-col gap-4" data-testid="paystack-panel">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-line bg-surface-2/60 p-4 text-sm">
        <dt className="text-muted">{t('billing_ui.reference')}</dt>
        <dd className="font-mono font-semibold break-all" data-testid="paystack-reference">
          {answer.reference}
        </dd>
        <dt className="text-muted">{t('billing_ui.amount')}</dt>
        <dd className="font-semibold tabular-nums">{amount}</dd>
        {answer.email && (
          <>
            <dt className="text-muted">{t('billing_ui.email')}</dt>
            <dd className="break-all">{answer.email}</dd>
          </>
        )}
      </dl>
      <p className="text-xs text-muted">{t('billing_ui.paystack_note')}</p>
      {state === 'refused' && (
        <p role="alert" className="flex items-start gap-2 rounded-xl bg-danger-soft p-3 text-sm text-danger">
          <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('billing_ui.paystack_refused')}
        </p>
      )}
      {state === 'cancelled' && <p className="text-sm text-muted">{t('billing_ui.paystack_cancelled')}</p>}
      {state === 'paid' && (
        <p role="status" className="rounded-xl bg-success-soft p-3 text-sm text-success">
          {t('billing_ui.paystack_paid')}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          {t('billing_ui.close')}
        </Button>
        {state !== 'paid' && (
          <Button type="button" loading={state === 'opening'} onClick={() => void pay()}>
            <ExternalLink className="size-4" aria-hidden />
            {t('billing_ui.paystack_open')}
          </Button>
        )}
      </div>
    </div>
  );
}
