import {
  ContactBody,
  CreatePageBody,
  PageList,
  PagePreview,
  PagePreviewBody,
  PageResource,
  UpdatePageBody,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { mailingRateLimit } from '../../plugins/rate-limit.plugin';
import { renderMarkdown } from './markdown.renderer';
import { presentPage } from './pages.presenter';

const SlugParams = z.object({ slug: z.string().max(120) });

export const pagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pages } = app.deps;

  app.get(
    '/api/pages/:slug',
    { schema: { tags: ['pages'], params: SlugParams, response: { 200: PageResource } } },
    async (request) => ({
      data: presentPage(await pages.page(request.params.slug, await request.sessionUser())),
    }),
  );

  app.post(
    '/api/contact',
    { schema: { tags: ['pages'], body: ContactBody }, config: mailingRateLimit(app.deps.env) },
    async (request, reply) => {
      await pages.contact(request.body);
      return reply.status(204).send();
    },
  );

  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin'];

  app.get('/api/admin/pages', { ...admin, schema: { tags, response: { 200: PageList } } }, async () => ({
    data: (await pages.list()).map(presentPage),
  }));

  // An addition to the contract: pages besides the three every instance starts with.
  app.post(
    '/api/admin/pages',
    { ...admin, schema: { tags, body: CreatePageBody, response: { 201: PageResource } } },
    async (request, reply) => reply.status(201).send({ data: presentPage(await pages.create(request.body)) }),
  );

  // The editor's live preview, through the same renderer the page is served with.
  app.post(
    '/api/admin/pages/preview',
    { ...admin, schema: { tags, body: PagePreviewBody, response: { 200: PagePreview } } },
    async (request) => ({ data: { html: renderMarkdown(request.body.content) } }),
  );

  app.patch(
    '/api/admin/pages/:slug',
    { ...admin, schema: { tags, params: SlugParams, body: UpdatePageBody, response: { 200: PageResource } } },
    async (request) => ({ data: presentPage(await pages.update(request.params.slug, request.body)) }),
  );
};
