import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPrepared } from '../../lib/prepared-body';
import { preparedMessages } from './i18n.presenter';

export const i18nRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/translations/:locale',
    {
      schema: {
        tags: ['instance'],
        params: z.object({ locale: z.string().regex(/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})?$/) }),
        response: { 200: z.record(z.string(), z.string()) },
      },
    },
    async (request, reply) =>
      sendPrepared(
        request,
        reply,
        preparedMessages(await app.deps.i18n.messages(request.params.locale)),
        'application/json; charset=utf-8',
      ),
  );
};
