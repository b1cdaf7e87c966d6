import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { contentDisposition } from '../files/file-response';
import type { Invoice } from './invoices.service';

const tags = ['billing'];
const params = z.object({ id: z.string().max(64) });

function sendInvoice(reply: FastifyReply, invoice: Invoice) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', contentDisposition(invoice.filename, true))
    .header('cache-control', 'private, no-store')
    .send(invoice.pdf);
}

/** The PDF invoice of a completed charge: the owner's own, and any for the admin. */
export const invoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { invoices } = app.deps;

  app.get(
    '/api/user/transactions/:id/invoice',
    { preHandler: app.requireUser, schema: { tags, params } },
    async (request, reply) => sendInvoice(reply, await invoices.forUser(request.user!.id, request.params.id)),
  );

  app.get(
    '/api/admin/transactions/:id/invoice',
    { onRequest: app.requireAdmin, schema: { tags, params } },
    async (request, reply) => sendInvoice(reply, await invoices.forAdmin(request.params.id)),
  );
};
