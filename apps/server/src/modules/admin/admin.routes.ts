import {
  AdminCapacityBody,
  AdminCreateUserBody,
  AdminDashboard,
  AdminDeleteUserBody,
  AdminPasswordBody,
  AdminUpdateUserBody,
  AdminUserDetail,
  AdminUserList,
  AdminUserParams,
  AdminUsersQuery,
  AuditList,
  AuditQuery,
  UserResource,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { bodyFor, effectiveMethod } from '../../plugins/method-override.plugin';
import { currentUser } from '../../plugins/session.plugin';

const tags = ['admin'];

/** The dashboard, accounts and the audit log; every call needs role admin (403 otherwise). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { adminUsers, dashboard, users } = app.deps;
  // Checked before the body is read, so only an admin learns anything of the routes' rules.
  const onRequest = app.requireAdmin;

  app.get(
    '/api/admin/dashboard',
    { onRequest, schema: { tags, response: { 200: AdminDashboard } } },
    async () => dashboard.dashboard(),
  );

  app.get(
    '/api/admin/audit',
    { onRequest, schema: { tags, querystring: AuditQuery, response: { 200: AuditList } } },
    async (request) => adminUsers.auditLog(request.query.page, request.query.per_page),
  );

  app.get(
    '/api/admin/users',
    { onRequest, schema: { tags, querystring: AdminUsersQuery, response: { 200: AdminUserList } } },
    async (request) => adminUsers.list(request.query),
  );

  app.post(
    '/api/admin/users',
    {
      onRequest,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: AdminCreateUserBody, response: { 201: UserResource } },
    },
    async (request, reply) => {
      const user = await adminUsers.create(currentUser(request), request.body);
      return reply.status(201).send(await users.resource(user));
    },
  );

  app.get(
    '/api/admin/users/:id',
    { onRequest, schema: { tags, params: AdminUserParams, response: { 200: AdminUserDetail } } },
    async (request) => adminUsers.detail(request.params.id),
  );

  // Changing and deleting share one address, so one route serves both (see effectiveMethod).
  app.route({
    method: ['PATCH', 'DELETE'],
    url: '/api/admin/users/:id',
    onRequest,
    bodyLimit: BODY_LIMIT.form,
    schema: { tags, params: AdminUserParams, body: z.union([AdminUpdateUserBody, AdminDeleteUserBody]) },
    handler: async (request, reply) => {
      const admin = currentUser(request);
      if (effectiveMethod(request) === 'PATCH') {
        const body = bodyFor(AdminUpdateUserBody, request.body);
        return reply.send(await users.resource(await adminUsers.update(admin, request.params.id, body)));
      }
      await adminUsers.remove(admin, request.params.id, bodyFor(AdminDeleteUserBody, request.body).name);
      return reply.status(204).send();
    },
  });

  app.patch(
    '/api/admin/users/:id/capacity',
    {
      onRequest,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, params: AdminUserParams, body: AdminCapacityBody, response: { 200: UserResource } },
    },
    async (request) =>
      users.resource(
        await adminUsers.setCapacity(
          currentUser(request),
          request.params.id,
          request.body.max_storage_amount,
        ),
      ),
  );

  app.post(
    '/api/admin/users/:id/password',
    {
      onRequest,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, params: AdminUserParams, body: AdminPasswordBody },
    },
    async (request, reply) => {
      await adminUsers.password(currentUser(request), request.params.id, request.body);
      return reply.status(204).send();
    },
  );
};
