import { UserResource, UserSettingBody } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/session.plugin';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/user',
    { preHandler: app.requireUser, schema: { tags: ['user'], response: { 200: UserResource } } },
    async (request) => app.deps.users.resource(currentUser(request)),
  );

  app.patch(
    '/api/user/settings',
    { preHandler: app.requireUser, schema: { tags: ['user'], body: UserSettingBody } },
    async (request, reply) => {
      await app.deps.users.updateSetting(currentUser(request), request.body);
      return reply.status(204).send();
    },
  );
};
