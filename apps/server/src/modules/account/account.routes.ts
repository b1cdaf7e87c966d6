import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, AvatarParams, ChangePasswordBody, UserResource } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { readImageForm } from '../../lib/image-form';
import { currentUser, signedInClient } from '../../plugins/session.plugin';

const tags = ['account'];

/** The `avatar` file of the form, whole; larger than the cap is a 413 before anything is decoded. */
async function avatarImage(request: FastifyRequest): Promise<Buffer> {
  const { image } = await readImageForm(request, {
    file: 'avatar',
    maxBytes: AVATAR_MAX_BYTES,
    messages: { wrongField: 'validation.avatar_field', tooLarge: 'validation.avatar_too_large' },
  });
  return image;
}

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, avatars, users } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/user/password',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.form, schema: { tags, body: ChangePasswordBody } },
    async (request, reply) => {
      await auth.changePassword(currentUser(request), request.body, signedInClient(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/user/avatar',
    {
      preHandler: app.requireUser,
      schema: { tags, consumes: ['multipart/form-data'], response: { 200: UserResource } },
    },
    async (request) => {
      const image = await avatarImage(request);
      return users.resource(await avatars.replace(currentUser(request), image));
    },
  );

  // Not DELETE /api/user/avatar: its method-override POST would take the upload's address.
  app.delete(
    '/api/user/avatar/current',
    { preHandler: app.requireUser, schema: { tags, response: { 200: UserResource } } },
    async (request) => users.resource(await avatars.remove(currentUser(request))),
  );

  // Public like the pages that show avatars (a share's owner); the key changes with every upload.
  app.get('/api/avatars/:key/:size', { schema: { tags, params: AvatarParams } }, async (request, reply) => {
    const image = await avatars.open(request.params.key, request.params.size);
    return reply
      .header('content-type', 'image/webp')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(image);
  });
};
