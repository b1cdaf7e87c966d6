import {
  AddedProjectInputs,
  AddProjectInputsBody,
  CreateProjectBody,
  EffectiveScene,
  EffectiveSceneQuery,
  FileGenerateAssetsBody,
  GalleryDataQuery,
  GalleryDateList,
  GalleryDay,
  GalleryQuery,
  GalleryZipQuery,
  GenerateAssetsBody,
  OutputZipQuery,
  ProjectDocument,
  ProjectFileList,
  ProjectFilesQuery,
  ProjectFromFileBody,
  ProjectList,
  ProjectListQuery,
  ProjectRenderList,
  ProjectResourceDocument,
  ProjectSettingsDocument,
  RenderCategoryList,
  RenderJobList,
  RenderQueue,
  RerenderProjectBody,
  SetProjectCoverBody,
  StudioFinishList,
  UpdateProjectSettingsBody,
  UpdateSettingsBody,
} from '@atelier/contracts';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/session.plugin';
import { CHUNK_FIELDS, receiveChunkForm } from '../files/chunk-form';
import { sendZip } from '../files/file-response';
import type { ProjectChunkFields } from './projects.service';

const tags = ['projects'];
const IdParams = z.object({ id: z.string().max(64) });
const PROJECT_CHUNK_FIELDS: ReadonlySet<keyof ProjectChunkFields> = new Set([...CHUNK_FIELDS, 'project_id']);

function ownerOf(request: FastifyRequest): string {
  return currentUser(request).id;
}

/** Aborted when the client goes away before its answer is complete, so work done only for it can stop. */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** The projects studio: projects, settings, the project upload, render runs, outputs and the gallery. */
export const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { projects, renderQueue, settings, zipSlots } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/create-project',
    {
      preHandler: app.requireUser,
      schema: { tags, body: CreateProjectBody, response: { 201: ProjectDocument } },
    },
    async (request, reply) => {
      const ownerId = await projects.ownerFor(currentUser(request), request.body.user_id);
      const project = await projects.create(ownerId, {
        name: request.body.project_name,
        description: request.body.description,
      });
      return reply.status(201).send(project);
    },
  );

  app.post(
    '/api/projects/from-file',
    {
      preHandler: app.requireUser,
      schema: { tags, body: ProjectFromFileBody, response: { 201: ProjectDocument } },
    },
    async (request, reply) =>
      reply.status(201).send(await projects.createFromFile(ownerOf(request), request.body.file_id)),
  );

  app.post(
    '/api/projects/:id/inputs',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, body: AddProjectInputsBody, response: { 201: AddedProjectInputs } },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await projects.addInputs(ownerOf(request), request.params.id, request.body.items),
      }),
  );

  app.get(
    '/api/browse/projects/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        params: IdParams,
        querystring: ProjectListQuery,
        response: { 200: z.union([ProjectList, ProjectRenderList]) },
      },
    },
    async (request) =>
      request.params.id === 'all'
        ? projects.list(ownerOf(request), request.query)
        : projects.renders(ownerOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/browse/projects/files/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: ProjectFilesQuery, response: { 200: ProjectFileList } },
    },
    async (request) => projects.files(ownerOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/browse/projects/gallery/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: GalleryQuery, response: { 200: GalleryDateList } },
    },
    async (request) => projects.galleryDates(ownerOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/browse/projects/gallery/:id/data',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: GalleryDataQuery, response: { 200: GalleryDay } },
    },
    async (request) =>
      projects.galleryDay(ownerOf(request), request.params.id, request.query.date, request.query.search),
  );

  app.post(
    '/api/update-project-settings',
    {
      preHandler: app.requireUser,
      schema: { tags, body: UpdateProjectSettingsBody, response: { 200: ProjectSettingsDocument } },
    },
    async (request) => {
      const ownerId = await projects.ownerFor(currentUser(request), request.body.user_id);
      return {
        data: await projects.updateSettings(
          ownerId,
          request.body.project_id,
          request.body.updateKey,
          request.body.updateValue,
        ),
      };
    },
  );

  app.post(
    '/api/projects/:id/cover',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        params: IdParams,
        body: SetProjectCoverBody,
        response: { 200: ProjectResourceDocument },
      },
    },
    async (request) => ({
      data: await projects.setCover(ownerOf(request), request.params.id, request.body.item_id),
    }),
  );

  app.get(
    '/api/projects/:id/scene',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: EffectiveSceneQuery, response: { 200: EffectiveScene } },
    },
    async (request) =>
      projects.effectiveScene(ownerOf(request), request.params.id, request.query.category_id),
  );

  app.get(
    '/api/projects/inputs/:id/mesh',
    { preHandler: app.requireUser, schema: { tags, params: IdParams } },
    async (request, reply) =>
      reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'private, max-age=3600')
        .send(await projects.mesh(ownerOf(request), request.params.id, clientGone(reply))),
  );

  app.get(
    '/api/projects/categories',
    { preHandler: app.requireUser, schema: { tags, response: { 200: RenderCategoryList } } },
    async () => ({ data: await projects.categories() }),
  );

  app.get(
    '/api/projects/render-queue',
    { preHandler: app.requireUser, schema: { tags, response: { 200: RenderQueue } } },
    async (request) => ({ data: await renderQueue.forOwner(ownerOf(request)) }),
  );

  app.get(
    '/api/projects/finishes',
    { preHandler: app.requireUser, schema: { tags, response: { 200: StudioFinishList } } },
    async () => ({ data: await projects.finishes() }),
  );

  app.get(
    '/api/studio-settings/scene',
    { preHandler: app.requireUser, schema: { tags, response: { 200: EffectiveScene } } },
    async (request) => projects.effectiveDefaults(ownerOf(request)),
  );

  app.get(
    '/api/studio-settings',
    { preHandler: app.requireUser, schema: { tags, response: { 200: ProjectSettingsDocument } } },
    async (request) => ({ data: await projects.studioDefaults(ownerOf(request)) }),
  );

  app.post(
    '/api/studio-settings',
    {
      preHandler: app.requireUser,
      schema: { tags, body: UpdateSettingsBody, response: { 200: ProjectSettingsDocument } },
    },
    async (request) => ({
      data: await projects.updateStudioDefaults(
        ownerOf(request),
        request.body.updateKey,
        request.body.updateValue,
      ),
    }),
  );

  app.post(
    '/api/projects/upload/chunks',
    { preHandler: app.requireUser, schema: { tags, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const file = await receiveChunkForm(request, {
        fields: PROJECT_CHUNK_FIELDS,
        chunkBytes: (await settings.all()).chunk_size,
        receive: (clientKey, fields, chunk) =>
          projects.receiveChunk(ownerOf(request), clientKey, fields, chunk),
      });
      return file ? reply.status(201).send({ data: file }) : reply.status(204).send();
    },
  );

  app.post(
    '/api/generateAssets',
    {
      preHandler: app.requireUser,
      schema: { tags, body: GenerateAssetsBody, response: { 201: RenderJobList } },
    },
    async (request, reply) => {
      const ownerId = await projects.ownerFor(currentUser(request), request.body.user_id);
      return reply.status(201).send({
        data: await projects.generate(
          ownerId,
          request.body.project_id,
          request.body.category_id,
          request.body.variants,
        ),
      });
    },
  );

  app.post(
    '/api/projects/:id/rerender',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, body: RerenderProjectBody, response: { 201: RenderJobList } },
    },
    async (request, reply) => {
      const ownerId = await projects.ownerFor(currentUser(request), request.body.user_id);
      return reply.status(201).send({ data: await projects.rerenderOutdated(ownerId, request.params.id) });
    },
  );

  app.post(
    '/api/file-generateAssets',
    {
      preHandler: app.requireUser,
      schema: { tags, body: FileGenerateAssetsBody, response: { 201: RenderJobList } },
    },
    async (request, reply) => {
      const ownerId = await projects.ownerFor(currentUser(request), request.body.user_id);
      return reply.status(201).send({
        data: await projects.generateForFolder(ownerId, request.body.folder_id, request.body.category_id),
      });
    },
  );

  app.get(
    '/api/outputZip',
    { preHandler: app.requireUser, schema: { tags, querystring: OutputZipQuery } },
    async (request, reply) => {
      zipSlots.hold(reply, { client: `user:${currentUser(request).id}` });
      return sendZip(request, reply, await projects.outputZip(ownerOf(request), request.query.project_id));
    },
  );

  app.get(
    '/api/galleryZip',
    { preHandler: app.requireUser, schema: { tags, querystring: GalleryZipQuery } },
    async (request, reply) => {
      zipSlots.hold(reply, { client: `user:${currentUser(request).id}` });
      return sendZip(
        request,
        reply,
        await projects.galleryZip(ownerOf(request), request.query.project_id, request.query.date),
      );
    },
  );
};
