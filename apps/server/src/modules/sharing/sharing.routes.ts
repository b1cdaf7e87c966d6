import {
  AuthenticateShareBody,
  CreateFolderBody,
  CreateShareBody,
  ItemDocument,
  ItemList,
  FolderListQuery,
  ListQuery,
  MoveBody,
  OEmbedDocument,
  OEmbedQuery,
  ProductPageDocument,
  PublicShareDocument,
  RemoveBody,
  RenameBody,
  RevokeSharesBody,
  SearchQuery,
  SearchResults,
  ShareDocument,
  ShareEmailBody,
  ShareZipQuery,
  ThumbnailSize,
  UpdateShareBody,
  VersionList,
  VersionParams,
  type NavigationTree,
} from '@atelier/contracts';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Readable } from 'node:stream';
import { BODY_LIMIT } from '../../lib/body-limits';
import { runAtEnd } from '../../lib/run-at-end';
import { mailingRateLimit, mailingRateLimitWhen } from '../../plugins/rate-limit.plugin';
import { currentUser } from '../../plugins/session.plugin';
import { notFound, ownerActor } from '../files/files.access';
import type { Download } from '../files/download.service';
import { sendDownload, sendZip } from '../files/file-response';
import { CHUNK_FIELDS, receiveChunkForm } from '../files/chunk-form';
import { clientNetwork } from '../../lib/client-network';
import { presentOEmbed, presentProductPage } from './sharing.presenter';

const tags = ['sharing'];
const TokenParams = z.object({ token: z.string().max(64) });
const ItemTokenParams = TokenParams.extend({ id: z.string().max(64) });
const VersionTokenParams = VersionParams.merge(TokenParams);

/** A link's password session lives in a cookie of its own, named after the link. */
export function shareSessionCookie(token: string): string {
  return `atelier_share_${token}`;
}

/**
 * Share links: the owner's calls under /api/share, and the public calls of a link's visitors
 * (/api/sharing/…/{token}, and the bytes under /file and /thumbnail …/shared/{token}), each of which
 * the sharing service turns into a confined actor for the files services.
 */
export const sharingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sharing, files, uploads, downloads, versions, listings, settings, env, zipSlots, productPages } =
    app.deps;
  await app.register(multipart, { throwFileSizeLimit: false });

  /** The link's password session, if this browser opened one. */
  const sessionOf = (request: FastifyRequest, token: string) => request.cookies[shareSessionCookie(token)];
  const visit = (request: FastifyRequest, token: string) => sharing.visit(token, sessionOf(request, token));

  /**
   * Counts a download of the link once its whole body went out, before the answer ends (a HEAD, a
   * range, a revalidation, a download cut off or a file shown in the page's preview is none); a
   * counter that fails never fails the download.
   */
  const countedAtEnd = (request: FastifyRequest, bytes: Readable, token: string) =>
    request.method !== 'GET'
      ? bytes
      : runAtEnd(bytes, () =>
          sharing
            .countDownload(token)
            .catch((error: unknown) => request.log.error({ err: error }, 'share download count failed')),
        );

  // ---- the owner's side --------------------------------------------------------------------

  app.post(
    '/api/share',
    {
      preHandler: app.requireUser,
      // Only a link created with addresses sends mail, and only those are held to the rate of mail.
      config: mailingRateLimitWhen(env, (request) => {
        const emails = (request.body as { emails?: unknown } | undefined)?.emails;
        return Array.isArray(emails) && emails.length > 0;
      }),
      schema: { tags, body: CreateShareBody, response: { 201: ShareDocument } },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await sharing.create(currentUser(request).id, request.body) }),
  );

  app.get(
    '/api/share/:token',
    { preHandler: app.requireUser, schema: { tags, params: TokenParams, response: { 200: ShareDocument } } },
    async (request) => ({ data: await sharing.show(currentUser(request).id, request.params.token) }),
  );

  app.patch(
    '/api/share/:token',
    {
      preHandler: app.requireUser,
      schema: { tags, params: TokenParams, body: UpdateShareBody, response: { 200: ShareDocument } },
    },
    async (request) => ({
      data: await sharing.update(currentUser(request).id, request.params.token, request.body),
    }),
  );

  app.post(
    '/api/share/:token/email',
    {
      preHandler: app.requireUser,
      config: mailingRateLimit(env),
      schema: { tags, params: TokenParams, body: ShareEmailBody },
    },
    async (request, reply) => {
      await sharing.email(currentUser(request).id, request.params.token, request.body.emails);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/share/revoke',
    {
      preHandler: app.requireUser,
      bodyLimit: BODY_LIMIT.itemBatch,
      schema: { tags, body: RevokeSharesBody },
    },
    async (request, reply) => {
      await sharing.revoke(currentUser(request).id, request.body.tokens);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/browse/share',
    { preHandler: app.requireUser, schema: { tags, querystring: ListQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const actor = ownerActor(currentUser(request).id);
      return listings.send(request, reply, actor, () => files.browseShared(actor, request.query));
    },
  );

  // ---- the public side: reading ------------------------------------------------------------

  app.get(
    '/api/sharing/:token',
    { schema: { tags, params: TokenParams, response: { 200: PublicShareDocument } } },
    async (request) => ({
      data: await sharing.detail(request.params.token, sessionOf(request, request.params.token)),
    }),
  );

  app.post(
    '/api/sharing/authenticate/:token',
    { bodyLimit: BODY_LIMIT.form, schema: { tags, params: TokenParams, body: AuthenticateShareBody } },
    async (request, reply) => {
      const { token } = request.params;
      const session = await sharing.authenticate(token, request.body.password, request.ip);
      if (session) {
        reply.setCookie(shareSessionCookie(token), session.value, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: env.appUrl.startsWith('https://'),
          expires: session.expiresAt,
        });
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/sharing/file/:token',
    { schema: { tags, params: TokenParams, response: { 200: ItemDocument } } },
    async (request) => {
      const { actor, share } = await visit(request, request.params.token);
      return { data: await files.show(actor, share.item_id, 'file') };
    },
  );

  // A project's share as a product page (any other share is a 404); its files come through the share.
  app.get(
    '/api/sharing/product/:token',
    { schema: { tags, params: TokenParams, response: { 200: ProductPageDocument } } },
    async (request) => {
      const { actor, share } = await visit(request, request.params.token);
      return presentProductPage(share.token, await productPages.of(actor, share.item_id));
    },
  );

  // oEmbed for a pasted product page link; a link that is protected, ended or unknown has none (404).
  app.get(
    '/api/oembed',
    { schema: { tags, querystring: OEmbedQuery, response: { 200: OEmbedDocument } } },
    async (request) => {
      const { url, maxwidth, maxheight } = request.query;
      const token = productTokenOf(url, env.appUrl);
      const preview = token ? await sharing.preview(token) : null;
      if (!token || !preview) throw notFound();
      const site = { name: (await settings.all()).app_title, url: env.appUrl };
      return presentOEmbed(preview, token, site, { width: maxwidth, height: maxheight });
    },
  );

  app.get(
    '/api/sharing/folders/:id/:token',
    { schema: { tags, params: ItemTokenParams, querystring: FolderListQuery, response: { 200: ItemList } } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      return listings.send(request, reply, actor, () =>
        files.browseFolder(actor, request.params.id, request.query),
      );
    },
  );

  app.get(
    '/api/sharing/navigation/:token',
    // The tree is recursive, so its schema is documented in the contracts rather than here.
    { schema: { tags, params: TokenParams } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      return listings.send(request, reply, actor, async (): Promise<NavigationTree> => ({
        data: await files.navigation(actor),
      }));
    },
  );

  app.get(
    '/api/sharing/search/:token',
    { schema: { tags, params: TokenParams, querystring: SearchQuery, response: { 200: SearchResults } } },
    async (request) => {
      const { actor } = await visit(request, request.params.token);
      return { data: await files.search(actor, request.query.query) };
    },
  );

  app.get(
    '/api/sharing/zip/:token',
    { schema: { tags, params: TokenParams, querystring: ShareZipQuery } },
    async (request, reply) => {
      const { actor, share } = await visit(request, request.params.token);
      zipSlots.hold(reply, { link: share.token, client: clientNetwork(request.ip) });
      const refs = request.query.items ?? [{ id: share.item_id, type: share.item_type }];
      const { name, archive } = await downloads.zip(actor, refs);
      return sendZip(request, reply, { name, archive: countedAtEnd(request, archive, share.token) });
    },
  );

  app.get(
    '/file/:id/shared/:token',
    {
      schema: {
        tags,
        params: ItemTokenParams,
        querystring: z.object({ download: z.enum(['0', '1']).optional() }),
      },
    },
    async (request, reply) => {
      const { actor, share } = await visit(request, request.params.token);
      const download = await downloads.file(actor, request.params.id);
      const attachment = request.query.download === '1';
      const counted: Download = {
        ...download,
        open: async (range) => {
          const bytes = await download.open(range);
          return range || !attachment ? bytes : countedAtEnd(request, bytes, share.token);
        },
      };
      return sendDownload(request, reply, counted, {
        attachment,
        // A link can be revoked or locked at any time: the browser asks again every time.
        cacheControl: 'private, no-cache',
      });
    },
  );

  app.get(
    '/thumbnail/:size/:id/shared/:token',
    { schema: { tags, params: ItemTokenParams.extend({ size: ThumbnailSize }) } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      const thumbnail = await downloads.thumbnail(actor, request.params.size, request.params.id);
      return sendDownload(request, reply, thumbnail, {
        attachment: false,
        cacheControl: 'private, no-cache',
      });
    },
  );

  // A file's versions inside the share, as the owner's calls answer them: read by every visitor,
  // restored and deleted by an editor's link only.
  app.get(
    '/api/sharing/versions/:id/:token',
    { schema: { tags, params: ItemTokenParams, response: { 200: VersionList } } },
    async (request) => {
      const { actor } = await visit(request, request.params.token);
      return { data: await versions.list(actor, request.params.id) };
    },
  );

  app.get(
    '/api/sharing/version/:id/:versionId/:token',
    {
      schema: {
        tags,
        params: VersionTokenParams,
        querystring: z.object({ download: z.enum(['0', '1']).optional() }),
      },
    },
    async (request, reply) => {
      const { id, versionId, token } = request.params;
      const { actor } = await visit(request, token);
      return sendDownload(request, reply, await versions.open(actor, id, versionId), {
        attachment: request.query.download === '1',
        cacheControl: 'private, no-cache',
      });
    },
  );

  // ---- the public side: an editor's changes (a visitor's answer 403) -----------------------
  app.post(
    '/api/sharing/version/:id/:versionId/restore/:token',
    { schema: { tags, params: VersionTokenParams, response: { 200: ItemDocument } } },
    async (request) => {
      const { id, versionId, token } = request.params;
      const { actor } = await visit(request, token);
      return { data: await versions.restore(actor, id, versionId) };
    },
  );

  app.delete(
    '/api/sharing/version/:id/:versionId/:token',
    { schema: { tags, params: VersionTokenParams } },
    async (request, reply) => {
      const { id, versionId, token } = request.params;
      const { actor } = await visit(request, token);
      await versions.remove(actor, id, versionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/sharing/create-folder/:token',
    { schema: { tags, params: TokenParams, body: CreateFolderBody, response: { 201: ItemDocument } } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      return reply.status(201).send({ data: await files.createFolder(actor, request.body) });
    },
  );

  app.patch(
    '/api/sharing/rename/:id/:token',
    { schema: { tags, params: ItemTokenParams, body: RenameBody, response: { 200: ItemDocument } } },
    async (request) => {
      const { actor } = await visit(request, request.params.token);
      return { data: await files.rename(actor, request.params.id, request.body) };
    },
  );

  app.post(
    '/api/sharing/move/:token',
    { bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, params: TokenParams, body: MoveBody } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      await files.move(actor, request.body.to_id, request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/sharing/remove/:token',
    { bodyLimit: BODY_LIMIT.itemBatch, schema: { tags, params: TokenParams, body: RemoveBody } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      await files.remove(actor, request.body.items);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/sharing/upload/chunks/:token',
    { schema: { tags, params: TokenParams, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const { actor } = await visit(request, request.params.token);
      const file = await receiveChunkForm(request, {
        fields: CHUNK_FIELDS,
        chunkBytes: (await settings.all()).chunk_size,
        receive: (clientKey, fields, chunk) => uploads.receive(actor, clientKey, fields, chunk),
      });
      return file ? reply.status(201).send({ data: file }) : reply.status(204).send();
    },
  );
};

/** The token of a product page's (or a share page's) address on this instance, or null. */
function productTokenOf(url: string, appUrl: string): string | null {
  if (!url.startsWith(`${appUrl}/`)) return null;
  const match = /^\/share\/([A-Za-z0-9]{16,64})(?:\/product)?(?:[?#].*)?$/.exec(url.slice(appUrl.length));
  return match ? match[1]! : null;
}
