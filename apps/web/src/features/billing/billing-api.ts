import type {
  AdminPaymentEventList,
  AdminSubscriptionList,
  Amount,
  AdminTransactionList,
  BalanceCheckoutBody,
  CheckoutAnswer,
  CheckoutBody,
  CreditBody,
  PlanList,
  SubscriptionDetail,
  SubscriptionStatus,
  SwapAnswer,
  TransactionList,
  TransactionStatus,
  TransactionType,
} from '@atelier/contracts';
import { api } from '../../lib/api-client';

export const billingKeys = {
  all: ['billing'] as const,
  detail: ['billing', 'detail'] as const,
  plans: ['billing', 'plans'] as const,
  transactions: (page: number) => ['billing', 'transactions', page] as const,
  adminSubscriptions: (query: AdminSubscriptionsFilter) =>
    ['billing', 'admin', 'subscriptions', query] as const,
  adminTransactions: (query: AdminTransactionsFilter) => ['billing', 'admin', 'transactions', query] as const,
  paymentEvents: ['billing', 'admin', 'payment-events'] as const,
};

export interface AdminSubscriptionsFilter {
  page: number;
  search: string;
  status?: SubscriptionStatus;
}

export interface AdminTransactionsFilter {
  page: number;
  search: string;
  type?: TransactionType;
  status?: TransactionStatus;
  driver?: string;
}

export const fetchDetail = () => api.get<SubscriptionDetail>('/api/subscriptions/detail');

export const fetchAvailablePlans = () => api.get<PlanList>('/api/subscriptions/plans');

export const checkout = (body: CheckoutBody) => api.post<CheckoutAnswer>('/api/subscriptions/checkout', body);

/** The amount as typed; the server answers 422 on the field when it is no amount. */
export const balanceCheckout = (body: BalanceCheckoutBody | Record<string, unknown>) =>
  api.post<CheckoutAnswer>('/api/subscriptions/balance/checkout', body);

export const cancelSubscription = () => api.post('/api/subscriptions/cancel');

/** The new plan, or the provider's page where the payer approves the new price first (PayPal). */
export const swapPlan = (planId: string) =>
  api.post<SwapAnswer>('/api/subscriptions/swap', { plan_id: planId });

export const fetchTransactions = (page: number) =>
  api.get<TransactionList>('/api/user/transactions', { query: { page } });

/** The PDF's address (the owner's, or any for the admin); the browser sends the session cookie. */
export const invoiceUrl = (id: string, admin = false) =>
  `/api/${admin ? 'admin' : 'user'}/transactions/${encodeURIComponent(id)}/invoice`;

/** A metered account's billing alert: a decimal string in its currency, or null for none. */
export const setBillingAlert = (amount: string | null) =>
  api.post<{ data: { alert: Amount | null } }>('/api/subscriptions/alert', { amount, _method: 'patch' });

export const fetchAdminSubscriptions = (query: AdminSubscriptionsFilter) =>
  api.get<AdminSubscriptionList>('/api/admin/subscriptions', {
    query: { ...query, search: query.search || undefined },
  });

export const fetchAdminTransactions = (query: AdminTransactionsFilter) =>
  api.get<AdminTransactionList>('/api/admin/transactions', {
    query: { ...query, search: query.search || undefined },
  });

export const creditBalance = (userId: string, body: CreditBody) =>
  api.post(`/api/admin/users/${encodeURIComponent(userId)}/credit`, body);

/** Provider payments kept for the admin instead of applied (they matched no checkout). */
export const fetchPaymentEvents = (page: number) =>
  api.get<AdminPaymentEventList>(`/api/admin/payment-events?page=${page}`);
