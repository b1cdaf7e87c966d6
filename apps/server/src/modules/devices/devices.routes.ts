import { SessionList, SessionParams } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, endSession, SESSION_COOKIE } from '../../plugins/session.plugin';

const tags = ['account'];

/** The signed-in user's devices: every live session, the caller's marked, and ending one. */
export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { devices } = app.deps;

  app.get(
    '/api/user/sessions',
    { preHandler: app.requireUser, schema: { tags, response: { 200: SessionList } } },
    async (request) => devices.list(currentUser(request).id, request.cookies[SESSION_COOKIE]),
  );

  // Ending the caller's own session is signing out, as POST /logout does.
  app.delete(
    '/api/user/sessions/:id',
    { preHandler: app.requireUser, schema: { tags, params: SessionParams } },
    async (request, reply) => {
      const ended = await devices.end(
        currentUser(request).id,
        request.params.id,
        request.cookies[SESSION_COOKIE],
      );
      if (ended.current) await endSession(request, reply);
      return reply.status(204).send();
    },
  );
};
