import {
  LoginBody,
  PasswordRecoverBody,
  PasswordResetBody,
  RegisterBody,
  UserResource,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { mailingRateLimit } from '../../plugins/rate-limit.plugin';
import { endSession, startSession } from '../../plugins/session.plugin';

const Message = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, users, i18n, env } = app.deps;
  const mailing = mailingRateLimit(env);

  app.post(
    '/api/register',
    {
      bodyLimit: BODY_LIMIT.form,
      schema: {
        tags: ['auth'],
        body: RegisterBody,
        response: { 201: z.union([UserResource, z.object({ verify: z.literal(true) })]) },
      },
      config: mailing,
    },
    async (request, reply) => {
      const { user, verify } = await auth.register(request.body);
      if (verify) return reply.status(201).send({ verify: true as const });
      await startSession(request, reply, user);
      return reply.status(201).send(await users.resource(user));
    },
  );

  app.post(
    '/api/login',
    {
      bodyLimit: BODY_LIMIT.form,
      schema: { tags: ['auth'], body: LoginBody, response: { 200: UserResource } },
    },
    async (request, reply) => {
      const user = await auth.authenticate(request.body, request.ip);
      await startSession(request, reply, user);
      return users.resource(user);
    },
  );

  app.post('/logout', { schema: { tags: ['auth'] } }, async (request, reply) => {
    await endSession(request, reply);
    return reply.status(204).send();
  });

  app.post(
    '/api/password/recover',
    {
      bodyLimit: BODY_LIMIT.form,
      schema: { tags: ['auth'], body: PasswordRecoverBody, response: { 200: Message } },
      config: mailing,
    },
    async (request) => {
      await auth.sendPasswordReset(request.body.email);
      return { message: await i18n.translate('auth.reset_link_sent') };
    },
  );

  app.post(
    '/api/password/reset',
    {
      bodyLimit: BODY_LIMIT.form,
      schema: { tags: ['auth'], body: PasswordResetBody, response: { 200: Message } },
      config: mailing,
    },
    async (request) => {
      await auth.resetPassword(request.body);
      return { message: await i18n.translate('auth.password_reset') };
    },
  );

  // The link in the verification e-mail: a browser navigation, so it answers with a redirect.
  app.get(
    '/api/email/verify/:token',
    {
      schema: { tags: ['auth'], params: z.object({ token: z.string().min(1).max(200) }) },
      config: mailing,
    },
    async (request, reply) => {
      const verified = await auth.verifyEmail(request.params.token);
      return reply.redirect(verified ? '/successfully-verified' : '/sign-in?verification=invalid');
    },
  );
};
