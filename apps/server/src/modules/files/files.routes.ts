import type { NavigationTree } from '@atelier/contracts';
import {
  CreateFolderBody,
  FavouritesBody,
  FolderListQuery,
  ItemDocument,
  ItemList,
  ListQuery,
  MoveBody,
  RemoteUploadAccepted,
  RemoteUploadBody,
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
import type { Actor } from './files.access';
import { sendDownload, sendZip } from './file-response';
import { CHUNK_FIELDS, receiveChunkForm } from './chunk-form';

const IdParams = z.object({ id: z.string().max(64) });
const tags = ['files'];

/**
 * The signed-in user's files, and the team folders they are a member of: upload, browse, organise,
 * trash, favourites, downloads and zips. Who the user acts as is decided from the item a call names.
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { files, uploads, remoteUploads, downloads, settings, listings, actors, zipSlots } = app.deps;
  /** The owner of their own tree, or a member of the team folder that holds the first item named. */
  const actorOf = (request: FastifyRequest, ...anchors: (string | null | undefined)[]): Promise<Actor> =>
    actors.of(currentUser(request).id, anchors);
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/upload/chunks',
    { preHandler: app.requireUser, schema: { tags, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const file = await receiveChunkForm(request, {
        fields: CHUNK_FIELDS,
        chunkBytes: (await settings.all()).chunk_size,
        receive: async (clientKey, fields, chunk) =>
          uploads.receive(await actorOf(request, fields.parent_id), clientKey, fields, chunk),
      });
      return file ? reply.status(201).send({ data: file }) : reply.status(204).send();
    },
  );

  app.post(
    '/api/upload/remote',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.urlBatch,
      schema: { tags, body: RemoteUploadBody, response: { 202: RemoteUploadAccepted } },
    },
    async (request, reply) => {
      const actor = await actorOf(request, request.body.parent_id);
      return reply.status(202).send({ data: await remoteUploads.start(actor, request.body) });
    },
  );

  app.get(
    '/api/browse/folders/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: FolderListQuery, response: { 200: ItemList } },
    },
    async (request, reply) => {
      const actor = await actors.ofFolderPage(currentUser(request).id, request.params.id);
      return listings.send(request, reply, actor, () =>
        files.browseFolder(actor, request.params.id, request.query),
      );
    },
  );

  app.get(
    '/api/browse/latest',
    { preHandler: app.requireUser, schema: { tags, querystring: ListQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const actor = await actorOf(request);
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
      const actor = await actorOf(request);
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
      const actor = await actorOf(request);
      return listings.send(request, reply, actor, async (): Promise<NavigationTree> => ({
        data: await files.navigation(actor),
      }));
    },
  );

  app.get(
    '/api/browse/favourites',
    { preHandler: app.requireUser, schema: { tags, response: { 200: SearchResults } } },
    async (request, reply) => {
      const actor = await actorOf(request);
      return listings.send(request, reply, actor, async () => ({ data: await files.favourites(actor) }));
    },
  );

  app.get(
    '/api/search',
    {
      preHandler: app.requireUser,
      schema: { tags, querystring: SearchQuery, response: { 200: SearchResults } },
    },
    async (request) => ({ data: await files.search(await actorOf(request), request.query.query) }),
  );

  app.post(
    '/api/create-folder',
    {
      preHandler: app.requireUser,
      schema: { tags, body: CreateFolderBody, response: { 201: ItemDocument } },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await files.createFolder(await actorOf(request, request.body.parent_id), request.body),
      }),
  );

  app.patch(
    '/api/rename/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, body: RenameBody, response: { 200: ItemDocument } },
    },
    async (request) => ({
      data: await files.rename(await actorOf(request, request.params.id), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/move',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: MoveBody } },
    async (request, reply) => {
      const [actor, destination] = await Promise.all([
        actorOf(request, request.body.items[0]?.id, request.body.to_id),
        actorOf(request, request.body.to_id),
      ]);
      await files.move(actor, request.body.to_id, request.body.items, { destination });
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/remove',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: RemoveBody } },
    async (request, reply) => {
      await files.remove(await actorOf(request, request.body.items[0]?.id), request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/trash/restore',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: RestoreBody } },
    async (request, reply) => {
      await files.restore(await actorOf(request), request.body.to_home, request.body.items);
      return reply.status(204).send();
    },
  );

  app.delete('/api/trash/dump', { preHandler: app.requireUser, schema: { tags } }, async (request, reply) => {
    await files.dumpTrash(await actorOf(request));
    return reply.status(204).send();
  });

  app.post(
    '/api/favourites',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, body: FavouritesBody } },
    async (request, reply) => {
      await files.addFavourites(await actorOf(request, request.body.ids[0]), request.body.ids);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/favourites/:id',
    { preHandler: app.requireUser, schema: { tags, params: IdParams } },
    async (request, reply) => {
      await files.removeFavourite(await actorOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/user/storage',
    { preHandler: app.requireUser, schema: { tags, response: { 200: StorageUsage } } },
    async (request) => ({ data: await files.storageUsage(await actorOf(request)) }),
  );

  app.get(
    '/api/zip',
    { preHandler: app.requireUser, schema: { tags, querystring: ZipQuery } },
    async (request, reply) => {
      zipSlots.hold(reply, { client: `user:${currentUser(request).id}` });
      return sendZip(
        request,
        reply,
        await downloads.zip(await actorOf(request, request.query.items[0]?.id), request.query.items),
      );
    },
  );

  app.get(
    '/file/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: z.object({ download: z.enum(['0', '1']).optional() }) },
    },
    async (request, reply) =>
      sendDownload(
        request,
        reply,
        await downloads.file(await actorOf(request, request.params.id), request.params.id),
        {
          attachment: request.query.download === '1',
          cacheControl: 'private, no-cache',
        },
      ),
  );

  app.get(
    '/thumbnail/:size/:id',
    { preHandler: app.requireUser, schema: { tags, params: IdParams.extend({ size: ThumbnailSize }) } },
    async (request, reply) =>
      sendDownload(
        request,
        reply,
        await downloads.thumbnail(
          await actorOf(request, request.params.id),
          request.params.size,
          request.params.id,
        ),
        {
          attachment: false,
          // Its address stays while the file's bytes are replaced or restored: asked again each time (304 while unchanged).
          cacheControl: 'private, no-cache',
        },
      ),
  );
};
