// The admin's billing screens, one chunk loaded on demand for all of them.
export { AdminInvoicesPage } from './admin-invoices-page';
export { AdminSubscriptionsPage } from './admin-subscriptions-page';
export { PaymentsBillingsPage, PaymentsProvidersPage } from './payments-pages';
export { PlanCreatePage } from './plan-create-page';
export { PlanPage } from './plan-page';
export { PlansPage } from './plans-page';
