import { ERROR_STATUS } from '@atelier/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { basicCredentials } from '../../lib/basic-credentials';
import { acceptClientForms, CLIENT_FORM_BYTES } from './client-forms';
import { sendOcs, type OcsVersion } from './ocs.presenter';

export const OCS_VERSIONS: readonly OcsVersion[] = ['v1', 'v2'];
/** `/ocs/v1.php` or `/ocs/v2.php`: the same calls, enveloped the two ways. */
export const ocsBase = (version: OcsVersion) => `/ocs/${version}.php`;

/** `format=json` or `format=xml`; anything else is the default, XML. */
export const OcsQuery = z.object({ format: z.string().max(16).optional() });
const SharesQuery = OcsQuery.extend({
  path: z.string().max(4096).optional(),
  shared_with_me: z.string().max(8).optional(),
  reshares: z.string().max(8).optional(),
  subfiles: z.string().max(8).optional(),
});
const ShareParams = z.object({ id: z.string().max(64) });
/** A share's fields, from a form or a JSON body; the service reads the ones it knows. */
const ShareFields = z.record(z.string(), z.unknown()).optional();
const tags = ['sync-clients'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which OCS API a route answers as, so its refusals are enveloped that way. */
    ocs?: OcsVersion;
  }
}

/**
 * The OCS API the Nextcloud and ownCloud clients read after status.php: the capabilities, the
 * signed-in account and its public links (the share menu of the apps). Every call carries
 * `OCS-APIRequest: true`, as Nextcloud requires, so a page of another site cannot make a browser
 * call it; an account signs in with Basic and an app password, never the account password.
 */
export const ocsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { syncClients, ocsShares, appPasswords, i18n } = app.deps;
  acceptClientForms(app);

  app.setErrorHandler(async (error, request, reply) => {
    // The installation gate's refusals are the server's, not the API's: answered as everywhere
    // (Nextcloud's clients take a 503 for maintenance and ask status.php).
    if (error instanceof AppError && (error.code === 'maintenance' || error.code === 'not_installed'))
      return reply.status(ERROR_STATUS[error.code]).send({
        message: await i18n.translate(error.message, error.vars),
        code: error.code,
      });
    const version = request.routeOptions.config.ocs ?? 'v2';
    const status =
      error instanceof AppError
        ? ERROR_STATUS[error.code]
        : hasZodFastifySchemaValidationErrors(error)
          ? 400
          : ((error as { statusCode?: number }).statusCode ?? 500);
    if (status >= 500 && !(error instanceof AppError))
      request.log.error({ err: error }, 'ocs request failed');
    const message =
      error instanceof AppError
        ? await i18n.translate(error.message, error.vars)
        : status < 500
          ? (error as Error).message
          : '';
    // A refusal that knows when it ends says so the standard way too.
    if (error instanceof AppError && error.meta?.retry_after)
      reply.header('retry-after', String(error.meta.retry_after));
    return sendOcs(request, reply, version, [], status === 422 ? 400 : status, message);
  });

  // Before anything else: without the header the call is refused whoever makes it.
  app.addHook('onRequest', async (request) => {
    if (request.headers['ocs-apirequest'] !== 'true')
      throw new AppError('unauthenticated', 'sync_clients.ocs_header_missing');
  });

  for (const version of OCS_VERSIONS) {
    const base = ocsBase(version);
    const config = { ocs: version };

    app.get(
      `${base}/cloud/capabilities`,
      { config, schema: { tags, querystring: OcsQuery } },
      async (request, reply) => {
        // Open to anyone, as Nextcloud's is; credentials that are sent must be right.
        if (request.headers.authorization !== undefined) await ocsUser(request);
        return sendOcs(request, reply, version, await syncClients.capabilities());
      },
    );

    app.get(
      `${base}/cloud/user`,
      { config, schema: { tags, querystring: OcsQuery } },
      async (request, reply) =>
        sendOcs(request, reply, version, await syncClients.user(await ocsUser(request))),
    );

    const shares = `${base}/apps/files_sharing/api/v1/shares`;
    // PUT and DELETE are the clients' own verbs here, never a POST standing for them.
    const verbs = { ocs: version, methodOverride: false };

    app.get(shares, { config, schema: { tags, querystring: SharesQuery } }, async (request, reply) => {
      if (request.query.subfiles === 'true')
        throw AppError.invalid('subfiles', 'sync_clients.shares.subfiles');
      return sendOcs(request, reply, version, await ocsShares.list(await ocsUser(request), request.query));
    });

    app.post(
      shares,
      { config, bodyLimit: CLIENT_FORM_BYTES, schema: { tags, querystring: OcsQuery, body: ShareFields } },
      async (request, reply) =>
        sendOcs(request, reply, version, await ocsShares.create(await ocsUser(request), request.body ?? {})),
    );

    app.get(
      `${shares}/:id`,
      { config, schema: { tags, querystring: OcsQuery, params: ShareParams } },
      // Nextcloud answers one share as a list of one.
      async (request, reply) =>
        sendOcs(request, reply, version, [await ocsShares.show(await ocsUser(request), request.params.id)]),
    );

    app.put(
      `${shares}/:id`,
      {
        config: verbs,
        bodyLimit: CLIENT_FORM_BYTES,
        schema: { tags, querystring: OcsQuery, params: ShareParams, body: ShareFields },
      },
      async (request, reply) =>
        sendOcs(
          request,
          reply,
          version,
          await ocsShares.update(await ocsUser(request), request.params.id, request.body ?? {}),
        ),
    );

    app.delete(
      `${shares}/:id`,
      { config: verbs, schema: { tags, querystring: OcsQuery, params: ShareParams } },
      async (request, reply) => {
        await ocsShares.delete(await ocsUser(request), request.params.id);
        return sendOcs(request, reply, version, []);
      },
    );
  }

  /** The account an OCS call signs in as, with its e-mail and an app password. */
  async function ocsUser(request: FastifyRequest): Promise<UserRow> {
    const credentials = basicCredentials(request.headers.authorization);
    const user = credentials
      ? await appPasswords.authenticate(credentials.email, credentials.password, request.ip)
      : null;
    if (!user) throw new AppError('unauthenticated', 'errors.unauthenticated');
    return user;
  }
};
