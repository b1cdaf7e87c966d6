import type { ActorKind } from './actors';
import type { RouteKey } from './route-inventory';

/**
 * What the installation gate answers, declared here apart from the gate it checks
 * (src/plugins/installation.plugin.ts). The gate decides on the route that matched, so these hold
 * whatever spelling the path was sent in.
 */

const API_REFERENCE: RouteKey[] = [
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/static/*',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/openapi.json',
];

/** The setup wizard's calls: before the installation they answer only to the token of the printed link. */
const WIZARD: RouteKey[] = [
  'GET /api/setup/status-check',
  'POST /api/setup/purchase-code',
  'POST /api/setup/database',
  'POST /api/setup/environment-setup',
  'POST /api/setup/app-setup',
  'POST /api/setup/admin-setup',
];

/** Open before the installation is finished: the wizard, the config, a liveness probe, the API reference, the web app's translations. */
export const OPEN_BEFORE_INSTALL: ReadonlySet<RouteKey> = new Set<RouteKey>([
  ...WIZARD,
  'GET /api/ping',
  'GET /api/config',
  'GET /translations/:locale',
  'GET /status.php',
  ...API_REFERENCE,
]);

/** What a route open before the installation answers then, where it is not what the access table says. */
export function answerBeforeInstall(route: RouteKey): number | undefined {
  // The matrix's callers hold no setup link.
  return WIZARD.includes(route) ? 403 : undefined;
}

/**
 * Open to everyone in maintenance mode: what an admin needs to sign in (second factor included) and
 * switch it off, the logo, the API reference, the web app's translations, and the payment providers'
 * webhooks, so no payment is missed.
 */
export const OPEN_IN_MAINTENANCE: ReadonlySet<RouteKey> = new Set<RouteKey>([
  'GET /api/ping',
  'GET /api/config',
  'POST /api/login',
  'POST /api/two-factor-challenge',
  'GET /api/user',
  'POST /logout',
  'GET /api/app-images/:key/:variant',
  'GET /translations/:locale',
  'POST /api/subscriptions/:driver/webhooks',
  'GET /status.php',
  ...API_REFERENCE,
]);

/**
 * Closed in maintenance to admins too: WebDAV clients (at /dav/ and Nextcloud's /remote.php/) sign
 * in with app passwords, never as the admin's session.
 */
const closedToAdmins = (route: RouteKey) => / \/(dav|remote\.php)\//.test(route);

/** Whether maintenance mode turns `actor`'s call of `route` away (503, code `maintenance`). */
export function refusedInMaintenance(route: RouteKey, actor: ActorKind): boolean {
  if (OPEN_IN_MAINTENANCE.has(route)) return false;
  return actor !== 'admin' || closedToAdmins(route);
}
