import { ContactBody, PageResource } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mailingRateLimit } from '../../plugins/rate-limit.plugin';

export const pagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/pages/:slug',
    {
      schema: {
        tags: ['pages'],
        params: z.object({ slug: z.string().max(120) }),
        response: { 200: PageResource },
      },
    },
    async (request) => {
      const page = await app.deps.pages.page(request.params.slug);
      return {
        data: {
          id: page.slug,
          type: 'page' as const,
          attributes: {
            slug: page.slug,
            title: page.title,
            content: page.content,
            updated_at: page.updated_at,
          },
        },
      };
    },
  );

  app.post(
    '/api/contact',
    { schema: { tags: ['pages'], body: ContactBody }, config: mailingRateLimit(app.deps.env) },
    async (request, reply) => {
      await app.deps.pages.contact(request.body);
      return reply.status(204).send();
    },
  );
};
