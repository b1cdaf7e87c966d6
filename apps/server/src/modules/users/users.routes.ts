import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, UserResource, UserSettingBody } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { readImageForm } from '../../lib/image-form';
import { assertFormMarker } from '../../plugins/method-override.plugin';
import { currentUser } from '../../plugins/session.plugin';

/**
 * The description's multipart image update of a setting: `name` (the setting), the image in a field
 * of that name, and `_method: patch`. The avatar is the user's one image setting.
 */
async function settingImage(request: FastifyRequest): Promise<Buffer> {
  const { image, fields } = await readImageForm(request, {
    file: 'avatar',
    fields: ['name', '_method'],
    maxBytes: AVATAR_MAX_BYTES,
    messages: { wrongField: 'validation.avatar_field', tooLarge: 'validation.avatar_too_large' },
  });
  assertFormMarker(request, fields._method, 'PATCH');
  if (fields.name !== 'avatar') throw AppError.invalid('name', 'validation.avatar_field');
  return image;
}

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { avatars, users } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    '/api/user',
    { preHandler: app.requireUser, schema: { tags: ['user'], response: { 200: UserResource } } },
    async (request) => users.resource(currentUser(request)),
  );

  app.patch(
    '/api/user/settings',
    {
      preHandler: app.requireUser,
      // A multipart image update has no JSON body to validate: its form is read and checked below.
      attachValidation: true,
      config: { multipartMarker: true },
      schema: {
        tags: ['user'],
        body: UserSettingBody,
        consumes: ['application/json', 'multipart/form-data'],
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (request.isMultipart()) {
        const image = await settingImage(request);
        return reply.send(await users.resource(await avatars.replace(user, image)));
      }
      if (request.validationError) throw request.validationError;
      await users.updateSetting(user, request.body);
      return reply.status(204).send();
    },
  );
};
