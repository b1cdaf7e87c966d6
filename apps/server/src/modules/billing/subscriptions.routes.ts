import {
  BalanceCheckoutBody,
  CheckoutAnswer,
  CheckoutBody,
  SubscriptionDetail,
  SwapAnswer,
  SwapBody,
  TransactionList,
  TransactionsQuery,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BODY_LIMIT } from '../../lib/body-limits';

const tags = ['billing'];

/** A signed-in user's subscription, checkout, cancel, swap and transactions. */
export const subscriptionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { subscriptionsService, transactionsService } = app.deps;
  const preHandler = app.requireUser;

  app.get(
    '/api/subscriptions/detail',
    { preHandler, schema: { tags, response: { 200: SubscriptionDetail } } },
    async (request) => ({ data: await subscriptionsService.detail(request.user!) }),
  );

  app.post(
    '/api/subscriptions/checkout',
    {
      preHandler,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: CheckoutBody, response: { 200: CheckoutAnswer } },
    },
    async (request) => ({ data: await subscriptionsService.checkout(request.user!, request.body) }),
  );

  app.post(
    '/api/subscriptions/balance/checkout',
    {
      preHandler,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: BalanceCheckoutBody, response: { 200: CheckoutAnswer } },
    },
    async (request) => ({ data: await subscriptionsService.balanceCheckout(request.user!, request.body) }),
  );

  app.post('/api/subscriptions/cancel', { preHandler, schema: { tags } }, async (request, reply) => {
    await subscriptionsService.cancel(request.user!);
    return reply.status(204).send();
  });

  app.post(
    '/api/subscriptions/swap',
    {
      preHandler,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: SwapBody, response: { 200: SwapAnswer } },
    },
    async (request) => subscriptionsService.swap(request.user!, request.body.plan_id),
  );

  app.get(
    '/api/user/transactions',
    { preHandler, schema: { tags, querystring: TransactionsQuery, response: { 200: TransactionList } } },
    async (request) =>
      transactionsService.forUser(request.user!.id, request.query.page, request.query.per_page),
  );
};
