import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, AvatarParams, ChangePasswordBody, UserResource } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { BODY_LIMIT } from '../../lib/body-limits';
import { currentUser, SESSION_COOKIE } from '../../plugins/session.plugin';
import { assertMultipartForm } from '../files/chunk-form';

const tags = ['account'];

/** The `avatar` file of the form, whole; larger than the cap is a 413 before anything is decoded. */
async function avatarImage(request: FastifyRequest): Promise<Buffer> {
  assertMultipartForm(request, 'avatar');
  const parts = request.parts({
    limits: { files: 1, fields: 4, fieldSize: 1024, fileSize: AVATAR_MAX_BYTES },
  });
  let image: Buffer | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'avatar') throw AppError.invalid(part.fieldname, 'validation.avatar_field');
      image = await part.toBuffer();
      if (part.file.truncated)
        throw new AppError(
          'payload_too_large',
          'validation.avatar_too_large',
          { avatar: ['validation.avatar_too_large'] },
          { megabytes: AVATAR_MAX_BYTES / 1024 / 1024 },
        );
    }
  } catch (error) {
    // The parser's own errors (a form cut off, broken framing) are the client's: 400, not 500.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw new AppError('bad_request', 'errors.malformed_form');
  }
  if (!image || image.length === 0) throw AppError.invalid('avatar', 'validation.required');
  return image;
}

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, avatars, users, realtime } = app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/user/password',
    { preHandler: app.requireUser, bodyLimit: BODY_LIMIT.form, schema: { tags, body: ChangePasswordBody } },
    async (request, reply) => {
      const user = currentUser(request);
      const sessionToken = request.cookies[SESSION_COOKIE]!;
      await auth.changePassword(user, request.body, { sessionToken, ip: request.ip });
      realtime.disconnectUserExcept(user.id, sessionToken);
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
