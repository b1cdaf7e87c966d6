import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { i18nRoutes } from './modules/i18n/i18n.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { errorsPlugin } from './plugins/errors.plugin';
import { createServices, type AppDeps, type ServiceOptions } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** Every routes module of the API, registered in this order. Add a domain by appending it. */
const routeModules: FastifyPluginAsync[] = [settingsRoutes, i18nRoutes];

export interface BuildAppOptions extends ServiceOptions {
  /** Pino request logging; off in tests. */
  logger?: boolean;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: env.LOG_LEVEL, redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]'] },
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 10 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', createServices(options));
  app.addHook('onClose', async () => options.database.destroy());
  await app.deps.i18n.seed();

  await app.register(errorsPlugin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'worker-src': ["'self'", 'blob:'],
        // Radix positions popovers with inline style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
      },
    },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Atelier API', version: '1.0.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'atelier_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  for (const routes of routeModules) await app.register(routes);
  return app;
}
