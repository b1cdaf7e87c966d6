import { PublicConfig } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminSettingsRoutes } from './admin-settings.routes';
import { presentPublicConfig } from './settings.presenter';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/ping',
    { schema: { tags: ['instance'], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/api/config', { schema: { tags: ['instance'], response: { 200: PublicConfig } } }, async () => {
    const [settings, languages] = await Promise.all([app.deps.settings.all(), app.deps.i18n.languages()]);
    return presentPublicConfig(settings, languages);
  });

  await app.register(adminSettingsRoutes);
};
