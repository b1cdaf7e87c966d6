import { Amount } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';

const tags = ['billing'];

/** PATCH /api/subscriptions/alert: the threshold, a decimal string in the plan's currency, or null. */
export const AlertBody = z.object({ amount: z.string().max(32).nullable() });

/** A metered user's own billing alert. */
export const meteredRoutes: FastifyPluginAsyncZod = async (app) => {
  const { metered } = app.deps;

  app.patch(
    '/api/subscriptions/alert',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.form,
      schema: {
        tags,
        body: AlertBody,
        response: { 200: z.object({ data: z.object({ alert: Amount.nullable() }) }) },
      },
    },
    async (request) => ({ data: { alert: await metered.setAlert(request.user!, request.body.amount) } }),
  );
};
