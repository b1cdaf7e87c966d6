import {
  BLOCK_MAX_BYTES,
  BlockParams,
  BlockQuery,
  BlocksCommitBody,
  BlocksMissing,
  BlocksMissingBody,
  ItemDocument,
} from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { BODY_LIMIT } from '../../lib/body-limits';
import { currentUser } from '../../plugins/session.plugin';
import type { Actor } from './files.access';

const tags = ['files'];

/**
 * The delta upload (issue 24, docs/delta-upload.md): which blocks of a file the server lacks, one
 * block's bytes, and the file filed as its list of blocks. The folder named decides whose blocks
 * they are: the signed-in user's own, or a team folder's owner's for its editors.
 */
export const blocksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { blockUploads, actors } = app.deps;
  const actorOf = (request: FastifyRequest, folder: string | null | undefined): Promise<Actor> =>
    actors.of(currentUser(request).id, [folder]);
  // A block's bytes arrive as they are, in this plugin's routes only.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: BLOCK_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/upload/blocks/missing',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.blockList,
      schema: { tags, body: BlocksMissingBody, response: { 200: BlocksMissing } },
    },
    async (request) => {
      const actor = await actorOf(request, request.body.parent_id);
      return { data: { missing: await blockUploads.missing(actor, request.body) } };
    },
  );

  app.put(
    '/api/upload/blocks/:sha256',
    {
      preHandler: app.requireUser,
      bodyLimit: BLOCK_MAX_BYTES,
      // Raw bytes carry no method marker.
      config: { methodOverride: false },
      schema: { tags, params: BlockParams, querystring: BlockQuery, consumes: ['application/octet-stream'] },
    },
    async (request, reply) => {
      const bytes = request.body;
      if (bytes !== undefined && !Buffer.isBuffer(bytes))
        throw new AppError('unsupported_media_type', 'errors.block_media_type');
      const actor = await actorOf(request, request.query.parent_id);
      await blockUploads.put(actor, request.query.parent_id, request.params.sha256, bytes ?? Buffer.alloc(0));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/upload/blocks/commit',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.blockList,
      schema: { tags, body: BlocksCommitBody, response: { 201: ItemDocument } },
    },
    async (request, reply) => {
      const actor = await actorOf(request, request.body.parent_id);
      return reply.status(201).send({ data: await blockUploads.commit(actor, request.body) });
    },
  );
};
