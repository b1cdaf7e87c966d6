import { issueMessageKey } from '@atelier/contracts';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { AppError } from '../lib/app-error';

const OVERRIDABLE = new Set(['PATCH', 'PUT', 'DELETE']);

const overridden = new WeakMap<FastifyRequest, string>();

declare module 'fastify' {
  interface FastifyInstance {
    /** URLs whose POST only stands for their PATCH/PUT/DELETE (not a POST route of its own). */
    markerPosts: ReadonlySet<string>;
  }
  interface FastifyContextConfig {
    /** False for routes whose bodies are never parsed (WebDAV's), so no POST can carry a marker. */
    methodOverride?: boolean;
    /**
     * The route also takes a multipart form (the description's multipart image update), whose marker
     * is one of its fields: the handler reads the form and checks it with `assertFormMarker`.
     */
    multipartMarker?: boolean;
  }
}

/**
 * The method a request stands for: its own, or the one its marker named. A route serving two
 * overridable methods at one address (Fastify allows one POST per address) branches on it.
 */
export function effectiveMethod(request: FastifyRequest): string {
  return overridden.get(request) ?? request.method;
}

/**
 * The body of a route serving two methods, checked against the schema of the one it stands for: the
 * route's own schema can only take either, so a body fit for the other one is refused here, 422 on
 * its fields as a schema failure is answered.
 */
export function bodyFor<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues)
    (errors[issue.path.join('.') || '_'] ??= []).push(issueMessageKey(issue));
  throw new AppError('validation_failed', 'errors.validation_failed', errors);
}

const isMultipart = (request: FastifyRequest) =>
  request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data') ?? false;

/**
 * A multipart POST's marker, read from its form by the handler of a `multipartMarker` route: it must
 * name `method`, else the form is refused (405) before anything it carries is kept.
 */
export function assertFormMarker(request: FastifyRequest, marker: string | undefined, method: string): void {
  if (request.method !== 'POST') return;
  if (marker?.toUpperCase() !== method) throw new AppError('method_not_allowed', 'errors.method_not_allowed');
  overridden.set(request, method);
}

/**
 * The description's method marker: a POST whose body carries `_method: "patch" | "put" | "delete"`
 * is handled as that method. Every PATCH/PUT/DELETE route therefore also answers POST, and a POST
 * must name the route's method in `_method`. A multipart form's body stays empty until a handler
 * reads its parts, so a multipart POST is refused like any other POST without a marker, unless the
 * route reads such forms (`multipartMarker`) and checks the form's own marker. The plain verbs keep
 * working.
 */
export const methodOverridePlugin = fp(async (app: FastifyInstance) => {
  const markerPosts = new Set<string>();
  app.decorate('markerPosts', markerPosts);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const overridable = methods.filter((m) => OVERRIDABLE.has(m));
    if (overridable.length === 0 || route.config?.methodOverride === false) return;
    // A route that is also a POST of its own (create and delete at one address) takes a POST
    // without a marker as that POST.
    const ownPost = methods.includes('POST');

    const checkMarker: preValidationHookHandler = async (request) => {
      if (request.method !== 'POST') return;
      if (route.config?.multipartMarker && isMultipart(request)) return;
      const body = request.body as Record<string, unknown> | undefined;
      const marker = typeof body?._method === 'string' ? body._method.toUpperCase() : undefined;
      if (ownPost && marker === undefined) return;
      if (!marker || !overridable.includes(marker)) {
        throw new AppError('method_not_allowed', 'errors.method_not_allowed');
      }
      delete body!._method;
      overridden.set(request, marker);
    };

    if (!ownPost) {
      route.method = [...methods, 'POST'];
      markerPosts.add(route.url);
    }
    const existing = route.preValidation;
    route.preValidation = [
      checkMarker,
      ...(existing ? (Array.isArray(existing) ? existing : [existing]) : []),
    ];
  });
});
