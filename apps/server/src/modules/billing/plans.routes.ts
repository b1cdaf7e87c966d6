import {
  AdminPlanList,
  AdminPlanResource,
  AdminPlansQuery,
  CreatePlanBody,
  PlanList,
  PlanParams,
  PlanSubscriberList,
  UpdatePlanBody,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { effectiveMethod } from '../../plugins/method-override.plugin';

const tags = ['billing'];

/** The admin's plans (role admin, 403 otherwise) and the plans a signed-in user may choose from. */
export const plansRoutes: FastifyPluginAsyncZod = async (app) => {
  const { plans } = app.deps;
  // Checked before the body is read, so only an admin learns anything of the routes' rules.
  const onRequest = app.requireAdmin;

  app.get(
    '/api/subscriptions/plans',
    { preHandler: app.requireUser, schema: { tags, response: { 200: PlanList } } },
    async () => plans.available(),
  );

  app.get(
    '/api/admin/plans',
    { onRequest, schema: { tags, querystring: AdminPlansQuery, response: { 200: AdminPlanList } } },
    async (request) => plans.list(request.query.page, request.query.per_page),
  );

  app.post(
    '/api/admin/plans',
    {
      onRequest,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: CreatePlanBody, response: { 201: AdminPlanResource } },
    },
    async (request, reply) => reply.status(201).send({ data: await plans.create(request.body) }),
  );

  app.get(
    '/api/admin/plans/:id',
    { onRequest, schema: { tags, params: PlanParams, response: { 200: AdminPlanResource } } },
    async (request) => ({ data: await plans.detail(request.params.id) }),
  );

  // Changing and deleting share one address, so one route serves both (see effectiveMethod).
  app.route({
    method: ['PATCH', 'DELETE'],
    url: '/api/admin/plans/:id',
    onRequest,
    bodyLimit: BODY_LIMIT.form,
    schema: { tags, params: PlanParams, body: UpdatePlanBody.nullish() },
    handler: async (request, reply) => {
      if (effectiveMethod(request) === 'PATCH') {
        return reply.send({ data: await plans.update(request.params.id, request.body ?? {}) });
      }
      // Deleted: 204. Held by someone: archived instead, answered with the plan.
      const archived = await plans.remove(request.params.id);
      return archived ? reply.send({ data: archived }) : reply.status(204).send();
    },
  });

  app.get(
    '/api/admin/plans/:id/subscribers',
    {
      onRequest,
      schema: {
        tags,
        params: PlanParams,
        querystring: AdminPlansQuery,
        response: { 200: PlanSubscriberList },
      },
    },
    async (request) => plans.subscribers(request.params.id, request.query.page, request.query.per_page),
  );
};
