import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { pino } from 'pino';
import type { Env } from './env';
import { BODY_LIMIT } from './lib/body-limits';
import { accountRoutes } from './modules/account/account.routes';
import { twoFactorRoutes } from './modules/account/two-factor.routes';
import { appPasswordsRoutes } from './modules/app-passwords/app-passwords.routes';
import { webdavRoutes } from './modules/webdav/webdav.routes';
import { webdavChunkedUploadsRoutes } from './modules/webdav/webdav.chunked-uploads.routes';
import { davTrashVersionsRoutes } from './modules/webdav/dav-trash-versions.routes';
import { davPreviewsRoutes } from './modules/webdav/dav-previews.routes';
import { ocsRoutes } from './modules/sync-clients/ocs.routes';
import { syncClientsRoutes } from './modules/sync-clients/sync-clients.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { plansRoutes } from './modules/billing/plans.routes';
import { subscriptionsRoutes } from './modules/billing/subscriptions.routes';
import { meteredRoutes } from './modules/billing/metered.routes';
import { invoicesRoutes } from './modules/billing/invoices.routes';
import { billingAdminRoutes } from './modules/billing/billing-admin.routes';
import { billingWebhookRoutes } from './modules/billing/billing-webhooks.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { blocksRoutes } from './modules/files/blocks.routes';
import { filesRoutes } from './modules/files/files.routes';
import { versionsRoutes } from './modules/files/versions.routes';
import { i18nRoutes } from './modules/i18n/i18n.routes';
import { languagesRoutes } from './modules/i18n/languages.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { pagesRoutes } from './modules/pages/pages.routes';
import { projectsRoutes } from './modules/projects/projects.routes';
import { shopPackRoutes } from './modules/projects/shop-pack.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { setupRoutes } from './modules/setup/setup.routes';
import { sharingRoutes } from './modules/sharing/sharing.routes';
import { socialSignInRoutes } from './modules/social-sign-in/social-sign-in.routes';
import { teamsRoutes } from './modules/teams/teams.routes';
import { uploadRequestsRoutes } from './modules/upload-requests/upload-requests.routes';
import { usersRoutes } from './modules/users/users.routes';
import { errorsPlugin } from './plugins/errors.plugin';
import { installationPlugin } from './plugins/installation.plugin';
import { methodOverridePlugin } from './plugins/method-override.plugin';
import { rateLimitPlugin } from './plugins/rate-limit.plugin';
import { securityHeadersPlugin } from './plugins/security-headers.plugin';
import { sessionPlugin } from './plugins/session.plugin';
import { connectionsCheckingInterval, slowClientPlugin } from './plugins/slow-client.plugin';
import { textInputPlugin } from './plugins/text-input.plugin';
import { webPlugin } from './plugins/web.plugin';
import { xsrfPlugin } from './plugins/xsrf.plugin';
import { realtimePlugin } from './realtime/realtime.plugin';
import { closeServices, createServices, type AppDeps, type ServiceOptions } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** Every routes module of the API, registered in this order. Add a domain by appending it. */
const routeModules: FastifyPluginAsync[] = [
  settingsRoutes,
  i18nRoutes,
  languagesRoutes,
  setupRoutes,
  authRoutes,
  usersRoutes,
  accountRoutes,
  twoFactorRoutes,
  appPasswordsRoutes,
  devicesRoutes,
  pagesRoutes,
  notificationsRoutes,
  filesRoutes,
  blocksRoutes,
  versionsRoutes,
  projectsRoutes,
  shopPackRoutes,
  sharingRoutes,
  uploadRequestsRoutes,
  teamsRoutes,
  socialSignInRoutes,
  adminRoutes,
  plansRoutes,
  subscriptionsRoutes,
  meteredRoutes,
  invoicesRoutes,
  billingAdminRoutes,
  billingWebhookRoutes,
  webdavRoutes,
  webdavChunkedUploadsRoutes,
  davTrashVersionsRoutes,
  davPreviewsRoutes,
  syncClientsRoutes,
  ocsRoutes,
];

/** Where Paystack's inline form comes from and talks to (docs/billing.md). */
const PAYSTACK_INLINE = {
  script: 'https://js.paystack.co',
  checkout: 'https://checkout.paystack.com',
  api: 'https://api.paystack.co',
};

export interface BuildAppOptions extends ServiceOptions {
  /** Pino request logging at LOG_LEVEL; pass false to silence it (tests). */
  logger?: boolean;
}

/** A hop count trusts that many proxies in front of the server, nearest first. */
function trustedProxies(
  setting: Env['TRUST_PROXY'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** The whole HTTP application on an open, migrated database; main.ts and the tests both build it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const logger = pino({
    level: options.logger === false ? 'silent' : env.LOG_LEVEL,
    redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]', 'res.headers["set-cookie"]'],
  });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: trustedProxies(env.TRUST_PROXY),
    bodyLimit: BODY_LIMIT.json,
    // Bodies are timed by the slow-client plugin (uploads by their progress); Node times the headers.
    requestTimeout: 0,
    http: {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: connectionsCheckingInterval(env),
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', createServices(options, logger));
  app.addHook('onClose', async () => closeServices(app.deps));

  await app.register(errorsPlugin);
  await app.register(slowClientPlugin);
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:', PAYSTACK_INLINE.api],
        'worker-src': ["'self'", 'blob:'],
        // Paystack's inline payment form: its script, loaded only when a person asks for that form.
        // WebAssembly the instance's own scripts compile (the product page's meshopt decoder of its
        // 3D model), which a policy without 'wasm-unsafe-eval' refuses; eval of text stays refused.
        'script-src': ["'self'", "'wasm-unsafe-eval'", PAYSTACK_INLINE.script],
        'frame-src': ["'self'", PAYSTACK_INLINE.checkout],
        // Radix positions popovers with inline style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Upgrading would break an instance served over plain HTTP on a LAN address.
        'upgrade-insecure-requests': env.appUrl.startsWith('https://') ? [] : null,
      },
    },
  });
  await app.register(cookie);
  await app.register(rateLimitPlugin);
  await app.register(xsrfPlugin);
  await app.register(sessionPlugin);
  await app.register(realtimePlugin);
  await app.register(installationPlugin);
  await app.register(methodOverridePlugin);
  await app.register(textInputPlugin);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Atelier API', version: '1.0.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'atelier_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  // The document is always built (app.swagger()); API_DOCS decides whether it is served.
  if (env.apiDocs) {
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  for (const routes of routeModules) await app.register(routes);
  await app.register(webPlugin);
  return app;
}
