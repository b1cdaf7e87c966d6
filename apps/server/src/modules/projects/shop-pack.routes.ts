import { BuildShopPackBody, SHOP_PRESETS, ShopPackDocument, ShopPackQuery } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientNetwork } from '../../lib/client-network';
import { runAtEnd } from '../../lib/run-at-end';
import { currentUser } from '../../plugins/session.plugin';
import { sendZip } from '../files/file-response';
import { shareSessionCookie } from '../sharing/sharing.routes';

const tags = ['projects'];
const IdParams = z.object({ id: z.string().max(64) });
const TokenParams = z.object({ token: z.string().max(64) });
const ALL_PRESETS = SHOP_PRESETS.map((preset) => preset.id);

/**
 * Shop packs of a project: the owner builds one (its checks are kept and shown) and downloads it;
 * a visitor of a link to the project downloads it too, a zip at a time per link and client.
 */
export const shopPackRoutes: FastifyPluginAsyncZod = async (app) => {
  const { shopPacks, sharing, zipSlots } = app.deps;

  app.get(
    '/api/projects/:id/shop-pack',
    { preHandler: app.requireUser, schema: { tags, params: IdParams, response: { 200: ShopPackDocument } } },
    async (request) => ({ data: await shopPacks.last(currentUser(request).id, request.params.id) }),
  );

  app.post(
    '/api/projects/:id/shop-pack',
    {
      preHandler: app.requireUser,
      schema: { tags, params: IdParams, body: BuildShopPackBody, response: { 200: ShopPackDocument } },
    },
    async (request) => ({
      data: await shopPacks.build(currentUser(request).id, request.params.id, request.body.presets),
    }),
  );

  app.get(
    '/api/projects/:id/shop-pack/zip',
    { preHandler: app.requireUser, schema: { tags, params: IdParams, querystring: ShopPackQuery } },
    async (request, reply) => {
      const user = currentUser(request);
      zipSlots.hold(reply, { client: `user:${user.id}` });
      const zip = await shopPacks.zipOf(user.id, request.params.id, request.query.presets ?? ALL_PRESETS);
      return sendZip(request, reply, zip);
    },
  );

  app.get(
    '/api/sharing/shop-pack/:token',
    { schema: { tags, params: TokenParams, querystring: ShopPackQuery } },
    async (request, reply) => {
      const { token } = request.params;
      const { actor, share } = await sharing.visit(token, request.cookies[shareSessionCookie(token)]);
      zipSlots.hold(reply, { link: share.token, client: clientNetwork(request.ip) });
      const { name, archive } = await shopPacks.zipThroughLink(
        actor,
        share.item_type,
        request.query.presets ?? ALL_PRESETS,
      );
      // Counted as the link's download once the whole pack went out, as its other zips are.
      const counted =
        request.method !== 'GET'
          ? archive
          : runAtEnd(archive, () =>
              sharing
                .countDownload(share.token)
                .catch((error: unknown) => request.log.error({ err: error }, 'share download count failed')),
            );
      return sendZip(request, reply, { name, archive: counted });
    },
  );
};
