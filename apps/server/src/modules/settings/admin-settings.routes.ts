import multipart from '@fastify/multipart';
import {
  AdminSettings,
  AdminSettingsBody,
  AdminSettingsQuery,
  AppImageParams,
  SETTINGS_IMAGE_MAX_BYTES,
  ServerStatus,
  SettingsImageAnswer,
  SettingsImageName,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { readImageForm } from '../../lib/image-form';
import { currentUser } from '../../plugins/session.plugin';

const tags = ['admin'];

/** The admin's settings tabs and server status, and the public images the appearance tab uploads. */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { adminSettings, settingsImages, serverStatus } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    '/api/admin/settings',
    {
      preHandler: app.requireAdmin,
      schema: { tags, querystring: AdminSettingsQuery, response: { 200: AdminSettings } },
    },
    async (request) => adminSettings.read(request.query.group),
  );

  app.post(
    '/api/admin/settings',
    { preHandler: app.requireAdmin, schema: { tags, body: AdminSettingsBody } },
    async (request, reply) => {
      await adminSettings.update(request.body.settings);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/admin/settings/image',
    {
      preHandler: app.requireAdmin,
      schema: { tags, consumes: ['multipart/form-data'], response: { 200: SettingsImageAnswer } },
    },
    async (request) => {
      const { image, fields } = await readImageForm(request, {
        file: 'image',
        fields: ['name'],
        maxBytes: SETTINGS_IMAGE_MAX_BYTES,
        messages: {
          wrongField: 'validation.settings_image_field',
          tooLarge: 'validation.settings_image_too_large',
        },
      });
      const name = SettingsImageName.safeParse(fields.name);
      if (!name.success) throw AppError.invalid('name', 'validation.settings_image_name');
      return {
        name: name.data,
        url: await settingsImages.replace(currentUser(request).id, name.data, image),
      };
    },
  );

  app.get(
    '/api/admin/server-status',
    { preHandler: app.requireAdmin, schema: { tags, response: { 200: ServerStatus } } },
    async () => serverStatus.status(),
  );

  // Public like the pages that show them; a new upload gets a new key, so they cache forever.
  app.get(
    '/api/app-images/:key/:variant',
    { schema: { tags: ['instance'], params: AppImageParams } },
    async (request, reply) => {
      const { stream, contentType } = await settingsImages.open(request.params.key, request.params.variant);
      return reply
        .header('content-type', contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(stream);
    },
  );
};
