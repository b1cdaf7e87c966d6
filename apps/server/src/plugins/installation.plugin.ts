import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/** What a browser needs before the installation is done: the wizard, the config and a liveness probe. */
const OPEN_BEFORE_INSTALL = /^\/api\/(setup\/|config$|ping$|docs(\/|$))/;
/** What keeps working in maintenance mode, so an admin can sign in and switch it off. */
const OPEN_IN_MAINTENANCE = /^\/(api\/(config|ping|login|user|docs(\/.*)?)|logout)$/;

/**
 * Gates the API on the installation state: until the wizard finishes, every API call but the
 * wizard's answers 503 not_installed; in maintenance mode only admins get through.
 */
export const installationPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (!path.startsWith('/api/') && path !== '/logout') return;
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
