import {
  AdminSetupBody,
  AppSetupBody,
  DatabaseSetupBody,
  EnvironmentSetupBody,
  PurchaseCodeBody,
  SETUP_TOKEN_COOKIE,
  StatusCheck,
  UserResource,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { startSession } from '../../plugins/session.plugin';

const Ok = z.object({ message: z.literal('ok') });

/**
 * The setup wizard; every step answers 410 once the installation is done, and 403 without the setup
 * token the server printed at start (the CLI installs without one: it runs on the machine itself).
 */
export const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  const { setup, users } = app.deps;
  app.addHook('onRequest', async (request) => {
    await setup.assertNotInstalled();
    await setup.assertSetupToken(request.cookies[SETUP_TOKEN_COOKIE]);
  });
  const tags = ['setup'];

  app.get('/api/setup/status-check', { schema: { tags, response: { 200: StatusCheck } } }, () =>
    setup.statusCheck(),
  );

  app.post(
    '/api/setup/purchase-code',
    { schema: { tags, body: PurchaseCodeBody, response: { 200: Ok } } },
    async (request) => {
      await setup.savePurchaseCode(request.body.purchaseCode);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/api/setup/database',
    { schema: { tags, body: DatabaseSetupBody, response: { 200: Ok } } },
    async (request) => {
      await setup.configureDatabase(request.body);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/api/setup/environment-setup',
    { schema: { tags, body: EnvironmentSetupBody, response: { 200: Ok } } },
    async (request) => {
      await setup.configureEnvironment(request.body);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/api/setup/app-setup',
    { schema: { tags, body: AppSetupBody, response: { 200: Ok } } },
    async (request) => {
      await setup.configureApp(request.body);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/api/setup/admin-setup',
    { schema: { tags, body: AdminSetupBody, response: { 201: UserResource } } },
    async (request, reply) => {
      const admin = await setup.createAdmin(request.body);
      await startSession(request, reply, admin);
      return reply.status(201).send(await users.resource(admin));
    },
  );
};
