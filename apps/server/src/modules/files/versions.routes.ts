import { ItemDocument, VersionList, VersionParams } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/session.plugin';
import { sendDownload } from './file-response';

const tags = ['files'];
const FileParams = VersionParams.pick({ id: true });

/**
 * A file's versions, for its owner and the members of a team folder that holds it: who may read the
 * file lists and downloads them, who may change it restores and deletes them.
 */
export const versionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { versions, actors } = app.deps;

  app.get(
    '/api/files/:id/versions',
    { preHandler: app.requireUser, schema: { tags, params: FileParams, response: { 200: VersionList } } },
    async (request) => {
      const actor = await actors.of(currentUser(request).id, [request.params.id]);
      return { data: await versions.list(actor, request.params.id) };
    },
  );

  app.get(
    '/api/files/:id/versions/:versionId',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        params: VersionParams,
        querystring: z.object({ download: z.enum(['0', '1']).optional() }),
      },
    },
    async (request, reply) => {
      const { id, versionId } = request.params;
      const actor = await actors.of(currentUser(request).id, [id]);
      return sendDownload(request, reply, await versions.open(actor, id, versionId), {
        attachment: request.query.download === '1',
        cacheControl: 'private, no-cache',
      });
    },
  );

  app.post(
    '/api/files/:id/versions/:versionId/restore',
    { preHandler: app.requireUser, schema: { tags, params: VersionParams, response: { 200: ItemDocument } } },
    async (request) => {
      const { id, versionId } = request.params;
      const actor = await actors.of(currentUser(request).id, [id]);
      return { data: await versions.restore(actor, id, versionId) };
    },
  );

  app.delete(
    '/api/files/:id/versions/:versionId',
    { preHandler: app.requireUser, schema: { tags, params: VersionParams } },
    async (request, reply) => {
      const { id, versionId } = request.params;
      await versions.remove(await actors.of(currentUser(request).id, [id]), id, versionId);
      return reply.status(204).send();
    },
  );
};
