import {
  CreateFolderBody,
  CreateUploadRequestBody,
  FolderListQuery,
  ItemDocument,
  ItemList,
  MoveBody,
  RemoveBody,
  RenameBody,
  UploadRequestDocument,
  UploadRequestList,
  type NavigationTree,
} from '@atelier/contracts';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { mailingRateLimitWhen } from '../../plugins/rate-limit.plugin';
import { currentUser } from '../../plugins/session.plugin';
import { CHUNK_FIELDS, receiveChunkForm } from '../files/chunk-form';

const tags = ['upload requests'];
const TokenParams = z.object({ token: z.string().max(64) });
const TokenItemParams = TokenParams.extend({ id: z.string().max(64) });

/**
 * Upload requests: the owner's calls (create, list) and the calls with a request's token, which
 * anyone holding the link makes (its outsider, or the owner closing it). Each token call goes
 * through the upload requests service, which answers 404/410 or gives an actor that reaches only
 * what came through the request.
 */
export const uploadRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { uploadRequests, files, listings, settings, env } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  // ---- the owner's side --------------------------------------------------------------------

  app.post(
    '/api/file-request',
    {
      preHandler: app.requireUser,
      // Only a request with an e-mail sends one, and only those are held to the rate of mail.
      config: mailingRateLimitWhen(env, (request) =>
        Boolean((request.body as { email?: unknown } | undefined)?.email),
      ),
      bodyLimit: BODY_LIMIT.form,
      schema: { tags, body: CreateUploadRequestBody, response: { 201: UploadRequestDocument } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await uploadRequests.create(currentUser(request).id, request.body) }),
  );

  app.get(
    '/api/file-request',
    { preHandler: app.requireUser, schema: { tags, response: { 200: UploadRequestList } } },
    async (request) => ({ data: await uploadRequests.list(currentUser(request).id) }),
  );

  // ---- with the token ----------------------------------------------------------------------

  app.get(
    '/api/file-request/:token',
    { schema: { tags, params: TokenParams, response: { 200: UploadRequestDocument } } },
    async (request) => ({ data: await uploadRequests.detail(request.params.token) }),
  );

  app.delete(
    '/api/file-request/:token',
    { schema: { tags, params: TokenParams } },
    async (request, reply) => {
      const caller = await request.sessionUser();
      await uploadRequests.close(request.params.token, caller?.id ?? null);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/file-request/:token/browse/:id',
    { schema: { tags, params: TokenItemParams, querystring: FolderListQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      return listings.send(request, reply, actor, () =>
        files.browseFolder(actor, request.params.id, request.query),
      );
    },
  );

  app.get(
    '/api/file-request/:token/navigation',
    // The tree is recursive, so its schema is documented in the contracts rather than here.
    { schema: { tags, params: TokenParams } },
    async (request, reply) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      return listings.send(request, reply, actor, async (): Promise<NavigationTree> => ({
        data: await files.navigation(actor),
      }));
    },
  );

  app.post(
    '/api/file-request/:token/upload/chunks',
    { schema: { tags, params: TokenParams, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const visit = await uploadRequests.visit(request.params.token);
      const file = await receiveChunkForm(request, {
        fields: CHUNK_FIELDS,
        chunkBytes: (await settings.all()).chunk_size,
        receive: (clientKey, fields, chunk) => uploadRequests.receive(visit, clientKey, fields, chunk),
      });
      if (!file) return reply.status(204).send();
      return reply.status(201).send({ data: file });
    },
  );

  app.post(
    '/api/file-request/:token/create-folder',
    { schema: { tags, params: TokenParams, body: CreateFolderBody, response: { 201: ItemDocument } } },
    async (request, reply) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      return reply.status(201).send({ data: await files.createFolder(actor, request.body) });
    },
  );

  app.patch(
    '/api/file-request/:token/rename/:id',
    { schema: { tags, params: TokenItemParams, body: RenameBody, response: { 200: ItemDocument } } },
    async (request) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      return { data: await files.rename(actor, request.params.id, request.body) };
    },
  );

  app.post(
    '/api/file-request/:token/move',
    { bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, params: TokenParams, body: MoveBody } },
    async (request, reply) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      await files.move(actor, request.body.to_id, request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/file-request/:token/remove',
    { bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, params: TokenParams, body: RemoveBody } },
    async (request, reply) => {
      const { actor } = await uploadRequests.visit(request.params.token);
      await files.remove(actor, request.body.items);
      return reply.status(204).send();
    },
  );
};
