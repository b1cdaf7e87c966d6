import { ERROR_STATUS, issueMessageKey, type ErrorBody, type ErrorCode } from '@atelier/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

/** Fastify's own 4xx errors (bad JSON, body too large, wrong media type...) keep their status. */
const CODE_FOR_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'throttled',
};

/** `/storage/driver` -> `storage.driver`, the field names the client sent. */
function fieldOf(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
}

/**
 * One place that turns failures into `{ message, code, errors?, meta? }`: AppError codes map to their status,
 * schema failures become 422 with a field map, and a 5xx never carries internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  const translate = (text: string, vars?: Record<string, string | number>) =>
    app.deps.i18n.translate(text, vars);

  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    let status: number;
    let body: ErrorBody;

    if (error instanceof AppError) {
      status = ERROR_STATUS[error.code];
      const errors = error.errors
        ? Object.fromEntries(
            await Promise.all(
              Object.entries(error.errors).map(
                async ([k, v]) => [k, await Promise.all(v.map((m) => translate(m, error.vars)))] as const,
              ),
            ),
          )
        : undefined;
      body = {
        message: await translate(error.message, error.vars),
        code: error.code,
        ...(errors ? { errors } : {}),
        ...(error.meta ? { meta: error.meta } : {}),
        ...error.ended,
        ...(error.missing ? { missing: error.missing } : {}),
      };
      // A refusal that knows when it ends says so the standard way too.
      if (error.meta?.retry_after) reply.header('retry-after', String(error.meta.retry_after));
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 422;
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = fieldOf(issue.instancePath);
        const message = issueMessageKey({
          code: issue.keyword,
          message: issue.message ?? '',
          minimum: issue.params.minimum,
        });
        (errors[field] ??= []).push(await translate(message));
      }
      body = { message: await translate('errors.validation_failed'), code: 'validation_failed', errors };
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = { message: error.message, code: CODE_FOR_STATUS[status] ?? 'bad_request' };
    } else {
      request.log.error({ err: error }, 'request failed');
      app.deps.errorLog.record({ status: 500, method: request.method, url: request.url, error });
      status = 500;
      body = { message: await translate('errors.internal'), code: 'internal' };
    }

    return reply.status(status).send(body);
  });
});
