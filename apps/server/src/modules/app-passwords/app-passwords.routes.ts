import {
  AppPasswordList,
  CreateAppPasswordBody,
  CreatedAppPassword,
  AppPasswordParams,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { currentUser } from '../../plugins/session.plugin';

const tags = ['account'];

/** The signed-in user's app passwords; the password is in the answer to its creation only. */
export const appPasswordsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { appPasswords } = app.deps;

  app.get(
    '/api/user/app-passwords',
    { preHandler: app.requireUser, schema: { tags, response: { 200: AppPasswordList } } },
    async (request) => appPasswords.list(currentUser(request).id),
  );

  app.post(
    '/api/user/app-passwords',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: CreateAppPasswordBody, response: { 201: CreatedAppPassword } },
    },
    async (request, reply) =>
      reply
        .status(201)
        // The one answer carrying a password: no cache may keep it.
        .header('cache-control', 'no-store')
        .send(await appPasswords.create(currentUser(request).id, request.body)),
  );

  app.delete(
    '/api/user/app-passwords/:id',
    { preHandler: app.requireUser, schema: { tags, params: AppPasswordParams } },
    async (request, reply) => {
      await appPasswords.revoke(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
};
