import {
  ConfirmTwoFactorBody,
  RecoveryCodes,
  TwoFactorPasswordBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { effectiveMethod } from '../../plugins/method-override.plugin';
import { currentUser, signedInClient } from '../../plugins/session.plugin';

const tags = ['account'];

/** Two-factor authentication of the signed-in user's own account. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { twoFactor } = app.deps;

  app.get(
    '/api/user/two-factor-authentication',
    { preHandler: app.requireUser, schema: { tags, response: { 200: TwoFactorStatus } } },
    async (request) => twoFactor.status(currentUser(request)),
  );

  // Enabling and disabling share one address, so one route serves both (see effectiveMethod).
  app.route({
    method: ['POST', 'DELETE'],
    url: '/api/user/two-factor-authentication',
    preHandler: app.requireUser,
    bodyLimit: BODY_LIMIT.form,
    schema: { tags, body: TwoFactorPasswordBody, response: { 200: TwoFactorSetup, 204: z.null() } },
    handler: async (request, reply) => {
      const user = currentUser(request);
      if (effectiveMethod(request) === 'POST')
        return twoFactor.begin(user, request.body.password, signedInClient(request));
      await twoFactor.disable(user, request.body.password, signedInClient(request));
      return reply.status(204).send(null);
    },
  });

  app.post(
    '/api/user/confirmed-two-factor-authentication',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: ConfirmTwoFactorBody, response: { 200: RecoveryCodes } },
    },
    async (request) => twoFactor.confirm(currentUser(request), request.body.code),
  );

  app.post(
    '/api/user/two-factor-recovery-codes',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: TwoFactorPasswordBody, response: { 200: RecoveryCodes } },
    },
    async (request) =>
      twoFactor.regenerateRecoveryCodes(currentUser(request), request.body.password, signedInClient(request)),
  );
};
