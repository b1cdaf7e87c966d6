import type { NavigationTree } from '@atelier/contracts';
import {
  CreateFolderBody,
  FavouritesBody,
  ItemDocument,
  ItemList,
  ListQuery,
  MoveBody,
  RemoveBody,
  RenameBody,
  RestoreBody,
  SearchQuery,
  SearchResults,
  StorageUsage,
  ThumbnailSize,
  ZipQuery,
} from '@atelier/contracts';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { currentUser } from '../../plugins/session.plugin';
import { ownerActor, type Actor } from './files.access';
import { sendDownload, sendZip } from './file-response';
import { CHUNK_FIELDS, receiveChunkForm } from './chunk-form';

const IdParams = z.object({ id: z.string().max(64) });
const tags = ['files'];

const SWEEP_EVERY_MS = 60 * 60_000;
/** An upload nobody continued for a day is abandoned. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60_000;

function actorOf(request: FastifyRequest): Actor {
  return ownerActor(currentUser(request).id);
}

/** The signed-in owner's files: upload, browse, organise, trash, favourites, downloads and zips. */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { files, uploads, downloads, settings, env, listings } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/upload/chunks',
    { preHandler: app.requireUser, schema: { tags, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const file = await receiveChunkForm(request, {
        fields: CHUNK_FIELDS,
        chunkBytes: (await settings.all()).chunk_size,
        receive: (clientKey, fields, chunk) => uploads.receive(actorOf(request), clientKey, fields, chunk),
      });
      return file ? reply.status(201).send({ data: file }) : reply.status(204).send();
    },
  );

  app.get(
    '/api/browse/folders/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: ListQuery, response: { 200: ItemList } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return listings.send(request, reply, actor, () =>
        files.browseFolder(actor, request.params.id, request.query),
      );
    },
  );

  app.get(
    '/api/browse/latest',
    { preHandler: app.requireUser, schema: { tags, querystring: ListQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const actor = actorOf(request);
      return listings.send(request, reply, actor, () => files.latest(actor, request.query));
    },
  );

  app.get(
    '/api/browse/trash/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: ListQuery, response: { 200: ItemList } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return listings.send(request, reply, actor, () =>
        files.browseTrash(actor, request.params.id, request.query),
      );
    },
  );

  app.get(
    '/api/browse/navigation',
    // The tree is recursive, so its schema is documented in the contracts rather than here.
    { preHandler: app.requireUser, schema: { tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      return listings.send(request, reply, actor, async (): Promise<NavigationTree> => ({
        data: await files.navigation(actor),
      }));
    },
  );

  app.get(
    '/api/browse/favourites',
    { preHandler: app.requireUser, schema: { tags, response: { 200: SearchResults } } },
    async (request, reply) => {
      const actor = actorOf(request);
      return listings.send(request, reply, actor, async () => ({ data: await files.favourites(actor) }));
    },
  );

  app.get(
    '/api/search',
    {
      preHandler: app.requireUser,
      schema: { tags, querystring: SearchQuery, response: { 200: SearchResults } },
    },
    async (request) => ({ data: await files.search(actorOf(request), request.query.query) }),
  );

  app.post(
    '/api/create-folder',
    {
      preHandler: app.requireUser,
      schema: { tags, body: CreateFolderBody, response: { 201: ItemDocument } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await files.createFolder(actorOf(request), request.body) }),
  );

  app.patch(
    '/api/rename/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, body: RenameBody, response: { 200: ItemDocument } },
    },
    async (request) => ({ data: await files.rename(actorOf(request), request.params.id, request.body) }),
  );

  app.post(
    '/api/move',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: MoveBody } },
    async (request, reply) => {
      await files.move(actorOf(request), request.body.to_id, request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/remove',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: RemoveBody } },
    async (request, reply) => {
      await files.remove(actorOf(request), request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/trash/restore',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: RestoreBody } },
    async (request, reply) => {
      await files.restore(actorOf(request), request.body.to_home, request.body.items);
      return reply.status(204).send();
    },
  );

  app.delete('/api/trash/dump', { preHandler: app.requireUser, schema: { tags } }, async (request, reply) => {
    await files.dumpTrash(actorOf(request));
    return reply.status(204).send();
  });

  app.post(
    '/api/favourites',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: FavouritesBody } },
    async (request, reply) => {
      await files.addFavourites(actorOf(request), request.body.ids);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/favourites/:id',
    { preHandler: app.requireUser, schema: { tags, params: IdParams } },
    async (request, reply) => {
      await files.removeFavourite(actorOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/user/storage',
    { preHandler: app.requireUser, schema: { tags, response: { 200: StorageUsage } } },
    async (request) => ({ data: await files.storageUsage(actorOf(request)) }),
  );

  app.get(
    '/api/zip',
    { preHandler: app.requireUser, schema: { tags, querystring: ZipQuery } },
    async (request, reply) =>
      sendZip(request, reply, await downloads.zip(actorOf(request), request.query.items)),
  );

  app.get(
    '/file/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: z.object({ download: z.enum(['0', '1']).optional() }) },
    },
    async (request, reply) =>
      sendDownload(request, reply, await downloads.file(actorOf(request), request.params.id), {
        attachment: request.query.download === '1',
        cacheControl: 'private, no-cache',
      }),
  );

  app.get(
    '/thumbnail/:size/:id',
    { preHandler: app.requireUser, schema: { tags, params: IdParams.extend({ size: ThumbnailSize }) } },
    async (request, reply) =>
      sendDownload(
        request,
        reply,
        await downloads.thumbnail(actorOf(request), request.params.size, request.params.id),
        {
          attachment: false,
          cacheControl: 'private, max-age=86400',
        },
      ),
  );

  // Abandoned chunked uploads are swept by processes that run background work.
  if (env.SERVICES.includes('worker')) {
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        uploads
          .sweepAbandoned(ABANDONED_UPLOAD_MS)
          .catch((error: unknown) => app.log.error({ err: error }, 'upload sweep failed'));
      }, SWEEP_EVERY_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  }
};
