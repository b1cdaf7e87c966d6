import type { Logger } from 'pino';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { I18nService } from '../i18n/i18n.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { SettingsService } from '../settings/settings.service';
import type { AccountDirectory } from '../users/users.service';
import { BillingAdminService } from './billing-admin.service';
import { BillingEventsRepository } from './billing-events.repository';
import { BillingEventsService } from './billing-events.service';
import { BillingLedger } from './billing-ledger.service';
import { CheckoutsRepository } from './checkouts.repository';
import { applyBillingEventJob, registerPlanJob, stopReplacedSubscriptionJob } from './billing.jobs';
import { InvoicesService } from './invoices.service';
import type { PaymentProvider } from './payment-provider';
import { PaymentProviders } from './payment-providers';
import { meteredDailyJob } from './metered.jobs';
import { MeteredRepository } from './metered.repository';
import { MeteredService, type MeteredUsageSources } from './metered.service';
import type { Env } from '../../env';
import { PayPalProvider } from './providers/paypal.provider';
import { PaystackProvider } from './providers/paystack.provider';
import { StripeProvider } from './providers/stripe.provider';
import { PlanRegistrationService } from './plan-registration.service';
import { PlanRegistrationsRepository } from './plan-registrations.repository';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';
import { TransactionsRepository } from './transactions.repository';
import { TransactionsService } from './transactions.service';

export interface BillingModuleDeps {
  database: Database;
  settings: SettingsService;
  users: AccountDirectory;
  notifications: NotificationsService;
  i18n: I18nService;
  realtime: Broadcaster;
  jobs: JobQueue;
  providers: PaymentProvider[];
  /** What metered billing measures: storage used and team members counted. */
  usage: MeteredUsageSources;
  appUrl: string;
  logger: Logger;
  now: () => Date;
}

/** Billing's services; services.ts spreads them in. */
export function createBillingServices(deps: BillingModuleDeps) {
  const { database } = deps;
  const plans = new PlansRepository(database);
  const subscriptions = new SubscriptionsRepository(database);
  const transactions = new TransactionsRepository(database);
  const registrations = new PlanRegistrationsRepository(database);
  const checkouts = new CheckoutsRepository(database);
  const providers = new PaymentProviders(deps.providers);
  const billingAdmin = new BillingAdminService(subscriptions);
  const metered = new MeteredService({
    ...deps,
    metered: new MeteredRepository(database),
    subscriptions,
    transactions,
  });
  const onBalanceCredited = (userId: string) => metered.onBalanceCredited(userId);
  const planRegistration = new PlanRegistrationService({ ...deps, plans, registrations, providers });
  const ledger = new BillingLedger({
    ...deps,
    subscriptions,
    transactions,
    checkouts,
    plans,
    registrations,
    providers,
    onBalanceCredited,
    units: database,
  });
  return {
    metered,
    plans: new PlansService({
      ...deps,
      plans,
      providers,
      subscribers: billingAdmin,
      registerPlan: (planId) => planRegistration.schedule(planId),
    }),
    planRegistration,
    invoices: new InvoicesService({ ...deps, transactions, plans }),
    billingAdmin,
    subscriptionsService: new SubscriptionsService({
      ...deps,
      subscriptions,
      checkouts,
      plans,
      registrations,
      providers,
      metered,
      registerPlan: (planId) => planRegistration.scheduleFromCheckout(planId),
    }),
    transactionsService: new TransactionsService({
      ...deps,
      transactions,
      onBalanceCredited,
      balanceCurrency: (userId) => metered.balanceCurrency(userId),
      units: database,
    }),
    billingEvents: new BillingEventsService({
      ...deps,
      events: new BillingEventsRepository(database),
      providers,
      ledger,
      units: database,
    }),
  };
}

/** The providers, talking to each one's API (or the address the environment names instead). */
export function paymentProvidersFor(
  env: Env,
  now: () => Date,
  userIdByEmail: (email: string) => Promise<string | null>,
): PaymentProvider[] {
  return [
    new StripeProvider({ baseUrl: env.STRIPE_API_URL, now }),
    new PayPalProvider({ baseUrl: env.PAYPAL_API_URL, now }),
    new PaystackProvider({ baseUrl: env.PAYSTACK_API_URL, now, userIdByEmail }),
  ];
}

/** The background jobs of billing, for the worker's list. */
export const billingJobDefinitions = [
  applyBillingEventJob,
  registerPlanJob,
  stopReplacedSubscriptionJob,
  meteredDailyJob,
];
