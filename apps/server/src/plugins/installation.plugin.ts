import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

/*
 * Every rule below is read against the route that matched (`request.routeOptions.url`, Fastify's
 * pattern such as `/api/user/:id`), never against the text of the URL: the router decodes
 * percent-escapes, so `/%61pi/register` reaches `/api/register` while its text does not start
 * with `/api`.
 */

/**
 * What stays open whatever the installation state: the web app's pages, assets and translations, so
 * the wizard and the maintenance page can render, and status.php, which tells sync clients that
 * state. An unknown address matches no route and gets the not-found answer. Socket.IO answers
 * outside Fastify and applies the same rules itself.
 */
const ALWAYS_OPEN = /^\/(\*|translations\/:locale|status\.php)?$/;
/** What a browser needs before the installation is done: the wizard, the config and a liveness probe. */
const OPEN_BEFORE_INSTALL = /^\/api\/(setup\/.+|config|ping|docs(\/.*)?)$/;
/**
 * What keeps working in maintenance mode for everyone: what an admin needs to sign in (second factor
 * included) and switch it off, the logo shown, and payment providers' webhooks, so no payment is
 * missed while the instance is closed.
 */
const OPEN_IN_MAINTENANCE =
  /^\/(api\/(config|ping|login|two-factor-challenge|user|app-images\/.*|docs(\/.*)?|subscriptions\/:driver\/webhooks)|logout)$/;
/**
 * Closed in maintenance mode to admins too: WebDAV clients sign in with app passwords, not the
 * session that tells an admin apart, and sync whole folders back and forth; the web app is where an
 * admin works during maintenance.
 */
const CLOSED_TO_ADMINS_IN_MAINTENANCE = /^\/(dav|remote\.php)\//;

/**
 * Gates the server on the installation state: until the wizard finishes, every route but the web
 * app's and the wizard's answers 503 not_installed; in maintenance mode only admins get through.
 */
export const installationPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    // No route matched: the not-found handler answers, and it serves nothing of anyone's.
    if (route === undefined || ALWAYS_OPEN.test(route)) return;
    const settings = await app.deps.settings.all();
    if (!settings.installed) {
      if (!OPEN_BEFORE_INSTALL.test(route)) throw new AppError('not_installed', 'errors.not_installed');
      return;
    }
    if (!settings.maintenance || OPEN_IN_MAINTENANCE.test(route)) return;
    // Said in the instance's name: API clients and sync apps show the message as it comes.
    const closed = () =>
      new AppError('maintenance', 'errors.maintenance', undefined, { app: settings.app_title });
    if (CLOSED_TO_ADMINS_IN_MAINTENANCE.test(route)) throw closed();
    const user = await request.sessionUser();
    if (user?.role !== 'admin') throw closed();
  });
});
