import {
  AdminPaymentEventList,
  AdminPaymentEventsQuery,
  AdminSubscriptionList,
  AdminSubscriptionsQuery,
  AdminTransactionList,
  AdminTransactionsQuery,
  CreditBody,
  TransactionItem,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';

const tags = ['billing'];

/**
 * The admin's subscriptions, transactions and payment events to look at, and crediting a metered
 * balance (role admin).
 */
export const billingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { billingAdmin, billingEvents, transactionsService } = app.deps;
  const onRequest = app.requireAdmin;

  app.get(
    '/api/admin/subscriptions',
    {
      onRequest,
      schema: { tags, querystring: AdminSubscriptionsQuery, response: { 200: AdminSubscriptionList } },
    },
    async (request) => {
      const { page, per_page, ...filter } = request.query;
      return billingAdmin.subscriptions(filter, page, per_page);
    },
  );

  app.get(
    '/api/admin/transactions',
    {
      onRequest,
      schema: { tags, querystring: AdminTransactionsQuery, response: { 200: AdminTransactionList } },
    },
    async (request) => {
      const { page, per_page, ...filter } = request.query;
      return transactionsService.list(filter, page, per_page);
    },
  );

  app.get(
    '/api/admin/payment-events',
    {
      onRequest,
      schema: { tags, querystring: AdminPaymentEventsQuery, response: { 200: AdminPaymentEventList } },
    },
    async (request) => {
      const { page, per_page, status } = request.query;
      return billingEvents.list(status, page, per_page);
    },
  );

  app.post(
    '/api/admin/users/:id/credit',
    {
      onRequest,
      bodyLimit: BODY_LIMIT.form,
      schema: {
        tags,
        params: z.object({ id: z.string().max(64) }),
        body: CreditBody,
        response: { 201: z.object({ data: TransactionItem }) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await transactionsService.credit(request.params.id, request.body) }),
  );
};
