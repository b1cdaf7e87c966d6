import { LoginFlowDocument, LoginFlowParams } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../../env';
import { currentUser } from '../../plugins/session.plugin';
import { acceptClientForms, CLIENT_FORM_BYTES } from './client-forms';

const tags = ['sync-clients'];
/**
 * Flows one address may start a minute: a person connects a device now and then, not in bulk (a
 * six-hundredth of the global ceiling, 10 by default).
 */
const startsPerMinute = (env: Pick<Env, 'RATE_LIMIT_MAX'>) =>
  Math.max(1, Math.floor(env.RATE_LIMIT_MAX / 600));
/** Polls one address may send a minute: the clients ask every few seconds while the person signs in (120 by default). */
const pollsPerMinute = (env: Pick<Env, 'RATE_LIMIT_MAX'>) => Math.max(1, Math.floor(env.RATE_LIMIT_MAX / 50));

const PollQuery = z.object({ token: z.string().max(128).optional() });

/**
 * What a Nextcloud or ownCloud client asks first (status.php: whether this address is a server it
 * can sync with, open to anyone before the installation and in maintenance too, since that is what
 * it tells), and Login Flow v2: the client's two calls, and the web app's three on the page where
 * the person grants or refuses it.
 */
export const syncClientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { syncClients, loginFlows, env } = app.deps;

  // The clients send their poll token as a form.
  acceptClientForms(app);

  app.get('/status.php', { schema: { tags } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await syncClients.status()),
  );

  app.post(
    '/index.php/login/v2',
    {
      bodyLimit: CLIENT_FORM_BYTES,
      config: { rateLimit: { max: startsPerMinute(env), timeWindow: '1 minute' } },
      schema: { tags },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await loginFlows.start(request.headers['user-agent'])),
  );

  app.post(
    '/index.php/login/v2/poll',
    {
      bodyLimit: CLIENT_FORM_BYTES,
      config: { rateLimit: { max: pollsPerMinute(env), timeWindow: '1 minute' } },
      schema: { tags, querystring: PollQuery },
    },
    async (request, reply) => {
      const sent = (request.body as { token?: unknown } | undefined)?.token;
      const token = typeof sent === 'string' ? sent : (request.query.token ?? '');
      // The one answer carrying a password: no cache may keep it.
      return reply.header('cache-control', 'no-store').send(await loginFlows.poll(token));
    },
  );

  app.get(
    '/api/login-flows/:token',
    {
      preHandler: app.requireUser,
      schema: { tags, params: LoginFlowParams, response: { 200: LoginFlowDocument } },
    },
    async (request) => loginFlows.describe(request.params.token),
  );

  app.post(
    '/api/login-flows/:token/grant',
    { preHandler: app.requireUser, schema: { tags, params: LoginFlowParams } },
    async (request, reply) => {
      await loginFlows.grant(request.params.token, currentUser(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/login-flows/:token/refuse',
    { preHandler: app.requireUser, schema: { tags, params: LoginFlowParams } },
    async (request, reply) => {
      await loginFlows.refuse(request.params.token);
      return reply.status(204).send();
    },
  );
};
