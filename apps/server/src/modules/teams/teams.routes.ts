import {
  ConvertTeamFolderBody,
  CreateTeamFolderBody,
  InvitationDocument,
  InvitationQuery,
  ListQuery,
  TeamFolderDocument,
  TeamItemList,
  UpdateTeamFolderBody,
  type NavigationTree,
} from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BODY_LIMIT } from '../../lib/body-limits';
import { bodyFor, effectiveMethod } from '../../plugins/method-override.plugin';
import { mailingRateLimitWhen } from '../../plugins/rate-limit.plugin';
import { currentUser } from '../../plugins/session.plugin';

const tags = ['teams'];
const IdParams = z.object({ id: z.string().max(64) });

/** Whether a team call sends invitations (and so e-mails). */
const invites = (body: unknown) => {
  const invitations = (body as { invitations?: unknown } | undefined)?.invitations;
  return Array.isArray(invitations) && invitations.length > 0;
};

/** Team folders and invitations; every call needs a signed-in user, and the teams service decides the rest. */
export const teamsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { teams, env } = app.deps;
  // Calls that send invitations are held to the rate of the calls that send mail.
  const mailing = mailingRateLimitWhen(env, (request) => invites(request.body));

  app.post(
    '/api/teams/folders',
    {
      preHandler: app.requireUser,
      config: mailing,
      schema: { tags, body: CreateTeamFolderBody, response: { 201: TeamFolderDocument } },
    },
    async (request, reply) =>
      reply.status(201).send(await teams.create(currentUser(request).id, request.body)),
  );

  app.post(
    '/api/teams/folders/:id/convert',
    {
      preHandler: app.requireUser,
      config: mailing,
      schema: { tags, params: IdParams, body: ConvertTeamFolderBody, response: { 201: TeamFolderDocument } },
    },
    async (request, reply) =>
      reply.status(201).send(await teams.convert(currentUser(request).id, request.params.id, request.body)),
  );

  app.get(
    '/api/teams/folders/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: ListQuery, response: { 200: TeamItemList } },
    },
    async (request) => teams.ownerListing(currentUser(request).id, request.params.id, request.query),
  );

  app.get(
    '/api/teams/shared-with-me/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: ListQuery, response: { 200: TeamItemList } },
    },
    async (request) => teams.memberListing(currentUser(request).id, request.params.id, request.query),
  );

  app.get(
    '/api/teams/folders/:id/tree',
    // The tree is recursive, so its schema is documented in the contracts rather than here.
    { preHandler: app.requireUser, schema: { tags, params: IdParams } },
    async (request): Promise<NavigationTree> => ({
      data: await teams.tree(currentUser(request).id, request.params.id),
    }),
  );

  // Changing and dissolving share one address, so one route serves both (see effectiveMethod).
  app.route({
    method: ['PATCH', 'DELETE'],
    url: '/api/teams/folders/:id',
    preHandler: app.requireUser,
    config: mailing,
    bodyLimit: BODY_LIMIT.itemBatch,
    schema: { tags, params: IdParams, body: UpdateTeamFolderBody.nullish() },
    handler: async (request, reply) => {
      const ownerId = currentUser(request).id;
      if (effectiveMethod(request) === 'PATCH')
        return reply.send(
          await teams.update(ownerId, request.params.id, bodyFor(UpdateTeamFolderBody, request.body)),
        );
      await teams.dissolve(ownerId, request.params.id);
      return reply.status(204).send();
    },
  });

  app.delete(
    '/api/teams/folders/:id/leave',
    { preHandler: app.requireUser, schema: { tags, params: IdParams } },
    async (request, reply) => {
      await teams.leave(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/teams/invitations/:id',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, querystring: InvitationQuery, response: { 200: InvitationDocument } },
    },
    async (request) => teams.invitation(currentUser(request), request.params.id, request.query.token),
  );

  // Accepting and declining share one address, so one route serves both (see effectiveMethod).
  app.route({
    method: ['PUT', 'DELETE'],
    url: '/api/teams/invitations/:id',
    preHandler: app.requireUser,
    schema: { tags, params: IdParams, querystring: InvitationQuery },
    handler: async (request, reply) => {
      await teams.answer(
        currentUser(request),
        request.params.id,
        effectiveMethod(request) === 'PUT',
        request.query.token,
      );
      return reply.status(204).send();
    },
  });
};
