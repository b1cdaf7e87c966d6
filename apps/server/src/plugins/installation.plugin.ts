import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/**
 * What the installation state gates: the API and whatever serves or changes user data (file bytes,
 * thumbnails, sign-out). The web app's pages and translations stay open so the wizard and the
 * maintenance page can render; Socket.IO answers outside Fastify and applies the same rule itself.
 */
const GATED = /^\/(api|file|thumbnail)\/|^\/logout$/;
/** What a browser needs before the installation is done: the wizard, the config and a liveness probe. */
const OPEN_BEFORE_INSTALL = /^\/api\/(setup\/|config$|ping$|docs(\/|$))/;
/**
 * What keeps working in maintenance mode: what an admin needs to sign in and switch it off (the logo
 * shown), and payment providers' webhooks, so no payment is missed while the instance is closed.
 */
const OPEN_IN_MAINTENANCE =
  /^\/(api\/(config|ping|login|user|app-images\/.*|docs(\/.*)?|subscriptions\/[a-z]+\/webhooks)|logout)$/;

/**
 * Gates the server on the installation state: until the wizard finishes, everything gated but the
 * wizard's calls answers 503 not_installed; in maintenance mode only admins get through.
 */
export const installationPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (!GATED.test(path)) return;
    const settings = await app.deps.settings.all();
    if (!settings.installed) {
      if (!OPEN_BEFORE_INSTALL.test(path)) throw new AppError('not_installed', 'errors.not_installed');
      return;
    }
    if (settings.maintenance && !OPEN_IN_MAINTENANCE.test(path)) {
      const user = await request.sessionUser();
      if (user?.role !== 'admin') throw new AppError('maintenance', 'errors.maintenance');
    }
  });
});
