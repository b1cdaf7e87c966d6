import { PaymentDriver } from '@atelier/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';

/** A provider's event is a few kilobytes; anything past this is not one. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Providers' webhooks: anonymous but signed. Registered on its own, so its parser (the body kept as
 * bytes, since the signature covers them exactly) applies to no other route.
 */
export const billingWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { billingEvents } = app.deps;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/subscriptions/:driver/webhooks',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags: ['billing'],
        params: z.object({ driver: z.string().max(20) }),
        response: { 200: z.object({ received: z.literal(true) }) },
      },
    },
    async (request) => {
      // An unknown provider is a 404, as any address that is not there.
      const driver = PaymentDriver.safeParse(request.params.driver);
      if (!driver.success) throw new AppError('not_found', 'billing.unknown_driver');
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await billingEvents.receive(driver.data, body, request.headers);
      return { received: true as const };
    },
  );
};
