import { NotificationList, NotificationListQuery } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/session.plugin';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/notifications',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['notifications'],
        querystring: NotificationListQuery,
        response: { 200: NotificationList },
      },
    },
    async (request) =>
      app.deps.notifications.list(currentUser(request).id, request.query.page, request.query.per_page),
  );

  app.post(
    '/api/notifications/read',
    { preHandler: app.requireUser, schema: { tags: ['notifications'] } },
    async (request, reply) => {
      await app.deps.notifications.readAll(currentUser(request).id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/notifications',
    { preHandler: app.requireUser, schema: { tags: ['notifications'] } },
    async (request, reply) => {
      await app.deps.notifications.deleteAll(currentUser(request).id);
      return reply.status(204).send();
    },
  );

  // The admin's check that realtime works end to end: the event travels the whole path (adapter,
  // other API nodes) to the caller's own room, where the browser is waiting for it.
  app.post(
    '/api/admin/test-websockets',
    { preHandler: app.requireAdmin, schema: { tags: ['admin'] } },
    async (request, reply) => {
      await app.deps.realtime.emitToUser(currentUser(request).id, 'TestWebsocketConnection', {
        message: 'websocket_test',
      });
      return reply.status(204).send();
    },
  );
};
