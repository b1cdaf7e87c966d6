// The account's billing screens, one chunk loaded on demand for both.
export { BillingPage } from './billing-page';
export { TransactionsPage } from './transactions-page';
