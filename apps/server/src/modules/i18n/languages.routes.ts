import {
  CreateLanguageBody,
  Language,
  LanguageList,
  TranslationString,
  TranslationStringList,
  TranslationStringsQuery,
  UpdateTranslationBody,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const tags = ['admin'];
const LocaleParams = z.object({ locale: z.string().max(20) });

/** The admin's language editor (`/admin/language`). */
export const languagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { languages } = app.deps;
  const preHandler = app.requireAdmin;

  app.get(
    '/api/admin/languages',
    { preHandler, schema: { tags, response: { 200: LanguageList } } },
    async () => ({ data: await languages.list() }),
  );

  app.post(
    '/api/admin/languages',
    {
      preHandler,
      schema: { tags, body: CreateLanguageBody, response: { 201: z.object({ data: Language }) } },
    },
    async (request, reply) => reply.status(201).send({ data: await languages.add(request.body) }),
  );

  app.delete(
    '/api/admin/languages/:locale',
    { preHandler, schema: { tags, params: LocaleParams } },
    async (request, reply) => {
      await languages.remove(request.params.locale);
      return reply.status(204).send();
    },
  );

  // An addition to the contract: the language editor's "set as default" (the `locale` setting).
  app.post(
    '/api/admin/languages/:locale/default',
    { preHandler, schema: { tags, params: LocaleParams } },
    async (request, reply) => {
      await languages.setDefault(request.params.locale);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/admin/languages/:locale/strings',
    {
      preHandler,
      schema: {
        tags,
        params: LocaleParams,
        querystring: TranslationStringsQuery,
        response: { 200: TranslationStringList },
      },
    },
    async (request) => ({ data: await languages.strings(request.params.locale, request.query) }),
  );

  app.patch(
    '/api/admin/languages/:locale/strings',
    {
      preHandler,
      schema: {
        tags,
        params: LocaleParams,
        body: UpdateTranslationBody,
        response: { 200: z.object({ data: TranslationString }) },
      },
    },
    async (request) => ({ data: await languages.update(request.params.locale, request.body) }),
  );

  app.delete(
    '/api/admin/languages/:locale/strings/:key',
    { preHandler, schema: { tags, params: LocaleParams.extend({ key: z.string().max(200) }) } },
    async (request, reply) => {
      await languages.revert(request.params.locale, request.params.key);
      return reply.status(204).send();
    },
  );
};
