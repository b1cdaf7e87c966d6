import {
  LoginBody,
  PasswordRecoverBody,
  PasswordResetBody,
  RegisterBody,
  TwoFactorChallengeBody,
  TwoFactorRequired,
  UserResource,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { mailingRateLimit } from '../../plugins/rate-limit.plugin';
import { endSession, startSession } from '../../plugins/session.plugin';
import {
  completeTwoFactorSignIn,
  setSignInDevice,
  signIn,
  signInDeviceOf,
  TWO_FACTOR_CHALLENGE_COOKIE,
} from './sign-in';

const Message = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, users, i18n, env, signInChallenges } = app.deps;
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
      schema: {
        tags: ['auth'],
        body: LoginBody,
        response: { 200: z.union([UserResource, TwoFactorRequired]) },
      },
    },
    async (request, reply) => {
      const { user, device } = await auth.authenticate(request.body, {
        ip: request.ip,
        device: signInDeviceOf(request),
      });
      setSignInDevice(request, reply, device);
      if ((await signIn(request, reply, user)) === 'two_factor') return { two_factor: true as const };
      return users.resource(user);
    },
  );

  // The second step of a sign-in that answered { two_factor: true } (or a social callback's).
  app.post(
    '/api/two-factor-challenge',
    {
      bodyLimit: BODY_LIMIT.form,
      schema: { tags: ['auth'], body: TwoFactorChallengeBody, response: { 200: UserResource } },
    },
    async (request, reply) => {
      const token = request.cookies[TWO_FACTOR_CHALLENGE_COOKIE];
      const user = await signInChallenges.answer(token, request.body, request.ip);
      await completeTwoFactorSignIn(request, reply, user);
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
      await auth.requestPasswordReset(request.body.email);
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
    async (request, reply) => {
      const { device } = await auth.resetPassword(request.body);
      setSignInDevice(request, reply, device);
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
