import { PaymentDriver, SubscriptionType, type AdminSettings } from '@atelier/contracts';
import { Banknote, CreditCard, Gauge, Layers, Link2, TriangleAlert, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { InputField } from '../../components/ui/field';
import { Suggestions } from '../../components/ui/suggestions';
import { SwitchField } from '../../components/ui/switch';
import {
  SecretField,
  SettingsForm,
  SettingsLoader,
  SettingsSection,
  useSettingsForm,
} from '../admin/settings/settings-parts';
import { AdminHeader } from '../admin/users/admin-header';
import { CopyLinkButton } from '../sharing/copy-link';
import { BillingAdminTabs, DRIVER_NAMES } from './billing-parts';
import { PaymentEventsPanel } from './payment-events-panel';

/** The ISO 4217 codes this browser knows, offered while typing the instance's currency. */
const CURRENCIES = Intl.supportedValuesOf('currency');

function PaymentsFrame({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={title} lead={lead} />
      <BillingAdminTabs />
      {children}
    </section>
  );
}

/**
 * The settings a provider needs before the server offers it (its `configured` rule): the keys that
 * call its API and the secret that verifies its webhooks. Secrets read back only as set.
 */
const REQUIRED: Record<PaymentDriver, string[]> = {
  stripe: ['stripe_secret_key', 'stripe_webhook_secret'],
  paypal: ['paypal_client_id', 'paypal_secret', 'paypal_webhook_id'],
  paystack: ['paystack_public_key', 'paystack_secret_key'],
};

function configured(settings: AdminSettings, driver: PaymentDriver): boolean {
  return REQUIRED[driver].every((name) => Boolean(settings[name]) || settings[`${name}_set`] === true);
}

/** /admin/payments/billings: how the instance charges (none, fixed plans, metered), which providers, which currency. */
export function PaymentsBillingsPage() {
  const { t } = useTranslation();
  return (
    <PaymentsFrame title={t('pages.admin_payments_billings')} lead={t('billing_ui.billings_lead')}>
      <SettingsLoader group="payments">{(settings) => <BillingsForm settings={settings} />}</SettingsLoader>
    </PaymentsFrame>
  );
}

function BillingsForm({ settings }: { settings: AdminSettings }) {
  const { t, i18n } = useTranslation();
  const { draft, set, onSubmit, submitting, fieldErrors, formError } = useSettingsForm(
    'payments',
    {
      subscription_type: SubscriptionType.catch('none').parse(settings.subscription_type),
      allowed_payment_drivers: PaymentDriver.array().catch([]).parse(settings.allowed_payment_drivers),
      currency: typeof settings.currency === 'string' ? settings.currency : 'USD',
    },
    (d) => ({ ...d, currency: d.currency.trim().toUpperCase() }),
  );
  // Fixed plans with no provider that can take the money: nobody is offered a plan, so say it loudly.
  const unpayable =
    draft.subscription_type === 'fixed' &&
    !draft.allowed_payment_drivers.some((driver) => configured(settings, driver));
  // Why: providers with their keys that are switched off below, or no provider with its keys at all.
  const switchedOff = PaymentDriver.options.filter(
    (driver) => configured(settings, driver) && !draft.allowed_payment_drivers.includes(driver),
  );
  const toggle = (driver: PaymentDriver, on: boolean) =>
    set(
      'allowed_payment_drivers',
      PaymentDriver.options.filter((each) =>
        each === driver ? on : draft.allowed_payment_drivers.includes(each),
      ),
    );

  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <SettingsSection
        title={t('billing_ui.subscription_type')}
        lead={t('billing_ui.subscription_type_lead')}
        icon={<Layers className="size-5" aria-hidden />}
      >
        <ChoiceCards
          label={t('billing_ui.subscription_type')}
          value={draft.subscription_type}
          onChange={(value) => set('subscription_type', value)}
          columns={3}
          choices={[
            { value: 'none', title: t('billing_ui.type_none'), description: t('billing_ui.type_none_hint') },
            {
              value: 'fixed',
              title: t('billing_ui.type_fixed'),
              description: t('billing_ui.type_fixed_hint'),
              icon: <CreditCard className="size-4" aria-hidden />,
            },
            {
              value: 'metered',
              title: t('billing_ui.type_metered'),
              description: t('billing_ui.type_metered_hint'),
              icon: <Gauge className="size-4" aria-hidden />,
            },
          ]}
        />
        {fieldErrors.subscription_type && (
          <p role="alert" className="text-sm text-danger">
            {fieldErrors.subscription_type}
          </p>
        )}
        {unpayable && (
          <div
            role="status"
            className="flex items-start gap-3 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
            <p className="flex flex-col gap-1">
              <span className="font-semibold text-ink">{t('billing_ui.unpayable_title')}</span>
              {switchedOff.length > 0 ? (
                <span className="text-muted">
                  {t('billing_ui.unpayable_off_body', {
                    count: switchedOff.length,
                    providers: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
                      switchedOff.map((driver) => DRIVER_NAMES[driver]),
                    ),
                  })}
                </span>
              ) : (
                <span className="text-muted">
                  {t('billing_ui.unpayable_body')}{' '}
                  <Link to="/admin/payments/payments" className="font-medium text-accent underline">
                    {t('billing_ui.unpayable_link')}
                  </Link>
                </span>
              )}
            </p>
          </div>
        )}
      </SettingsSection>
      <SettingsSection
        title={t('billing_ui.drivers_title')}
        lead={t('billing_ui.drivers_lead')}
        icon={<Wallet className="size-5" aria-hidden />}
      >
        <div className="flex flex-col gap-2">
          {PaymentDriver.options.map((driver) => (
            <SwitchField
              key={driver}
              label={DRIVER_NAMES[driver]}
              description={t(
                configured(settings, driver) ? 'billing_ui.driver_ready' : 'billing_ui.driver_missing_keys',
              )}
              checked={draft.allowed_payment_drivers.includes(driver)}
              onCheckedChange={(on) => toggle(driver, on)}
            />
          ))}
        </div>
        {fieldErrors.allowed_payment_drivers && (
          <p role="alert" className="text-sm text-danger">
            {fieldErrors.allowed_payment_drivers}
          </p>
        )}
      </SettingsSection>
      <SettingsSection
        title={t('billing_ui.currency_title')}
        lead={t('billing_ui.currency_lead')}
        icon={<Banknote className="size-5" aria-hidden />}
      >
        <InputField
          className="sm:max-w-48"
          label={t('billing_ui.currency')}
          autoCapitalize="characters"
          maxLength={3}
          list="currencies"
          value={draft.currency}
          onChange={(event) => set('currency', event.target.value.toUpperCase())}
          error={fieldErrors.currency}
        />
        <Suggestions id="currencies" values={CURRENCIES} />
      </SettingsSection>
    </SettingsForm>
  );
}

/** /admin/payments/payments: each provider's keys (secrets write-only) and the webhook address to give it. */
export function PaymentsProvidersPage() {
  const { t } = useTranslation();
  return (
    <PaymentsFrame title={t('pages.admin_payments_payments')} lead={t('billing_ui.providers_lead')}>
      <PaymentEventsPanel />
      <SettingsLoader group="payments">
        {/* Saved settings come back as a new object: the form starts again, secrets shown as set. */}
        {(settings) => <ProvidersForm key={JSON.stringify(settings)} settings={settings} />}
      </SettingsLoader>
    </PaymentsFrame>
  );
}

const PLAIN_KEYS = [
  'stripe_public_key',
  'paystack_public_key',
  'paypal_client_id',
  'paypal_webhook_id',
] as const;
const SECRET_KEYS = [
  'stripe_secret_key',
  'stripe_webhook_secret',
  'paystack_secret_key',
  'paypal_secret',
] as const;
type PlainKey = (typeof PLAIN_KEYS)[number];
type SecretKey = (typeof SECRET_KEYS)[number];

function ProvidersForm({ settings }: { settings: AdminSettings }) {
  const { t } = useTranslation();
  const text = (name: string) => (typeof settings[name] === 'string' ? (settings[name] as string) : '');
  const { draft, set, onSubmit, submitting, fieldErrors, formError } = useSettingsForm(
    'payments',
    {
      ...(Object.fromEntries(PLAIN_KEYS.map((key) => [key, text(key)])) as Record<PlainKey, string>),
      // Secrets stay null (kept as stored) until the admin types a replacement.
      ...(Object.fromEntries(SECRET_KEYS.map((key) => [key, null])) as Record<SecretKey, string | null>),
    },
    (d) =>
      Object.fromEntries(
        Object.entries(d).map(([key, value]) => [
          key,
          typeof value === 'string' ? value.trim() || null : null,
        ]),
      ),
  );
  const plain = (key: PlainKey, label: string, hint?: string) => (
    <InputField
      label={label}
      hint={hint}
      autoCapitalize="off"
      autoComplete="off"
      spellCheck={false}
      value={draft[key]}
      onChange={(event) => set(key, event.target.value)}
      error={fieldErrors[key]}
    />
  );
  const secret = (key: SecretKey, label: string, hint?: string) => (
    <SecretField
      label={label}
      hint={hint}
      isSet={settings[`${key}_set`] === true}
      value={draft[key]}
      onChange={(value) => set(key, value)}
      error={fieldErrors[key]}
    />
  );

  return (
    <SettingsForm onSubmit={onSubmit} submitting={submitting} formError={formError}>
      <ProviderSection driver="stripe" settings={settings}>
        {plain('stripe_public_key', t('billing_ui.stripe_public_key'), 'pk_live_… / pk_test_…')}
        {secret('stripe_secret_key', t('billing_ui.stripe_secret_key'), 'sk_live_… / sk_test_…')}
        {secret('stripe_webhook_secret', t('billing_ui.stripe_webhook_secret'), 'whsec_…')}
      </ProviderSection>
      <ProviderSection driver="paypal" settings={settings}>
        {plain('paypal_client_id', t('billing_ui.paypal_client_id'))}
        {secret('paypal_secret', t('billing_ui.paypal_secret'))}
        {plain(
          'paypal_webhook_id',
          t('billing_ui.paypal_webhook_id'),
          t('billing_ui.paypal_webhook_id_hint'),
        )}
      </ProviderSection>
      <ProviderSection driver="paystack" settings={settings}>
        {plain('paystack_public_key', t('billing_ui.paystack_public_key'), 'pk_live_… / pk_test_…')}
        {secret(
          'paystack_secret_key',
          t('billing_ui.paystack_secret_key'),
          t('billing_ui.paystack_secret_hint'),
        )}
      </ProviderSection>
    </SettingsForm>
  );
}

function ProviderSection({
  driver,
  settings,
  children,
}: {
  driver: PaymentDriver;
  settings: AdminSettings;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const webhook = `${window.location.origin}/api/subscriptions/${driver}/webhooks`;
  const allowed = PaymentDriver.array().catch([]).parse(settings.allowed_payment_drivers).includes(driver);
  return (
    <SettingsSection
      title={DRIVER_NAMES[driver]}
      lead={t(`billing_ui.provider_lead.${driver}`)}
      icon={<CreditCard className="size-5" aria-hidden />}
    >
      <p className="-mt-2 text-xs font-medium">
        <span className={allowed ? 'text-success' : 'text-muted'}>
          {t(allowed ? 'billing_ui.driver_allowed' : 'billing_ui.driver_not_allowed')}
        </span>
      </p>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
      <div className="flex flex-col gap-1.5">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <Link2 className="size-4 text-muted" aria-hidden />
          {t('billing_ui.webhook_url')}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            className="min-w-0 flex-1 rounded-xl border border-line bg-surface-2 px-3.5 py-2.5 font-mono text-xs break-all"
            data-testid={`webhook-${driver}`}
          >
            {webhook}
          </code>
          <CopyLinkButton link={webhook} variant="secondary" label={t('billing_ui.copy')} />
        </div>
        <p className="text-xs text-muted">{t(`billing_ui.webhook_hint.${driver}`)}</p>
      </div>
    </SettingsSection>
  );
}
