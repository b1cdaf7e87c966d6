import type { FastifyInstance, HTTPMethods } from 'fastify';

export type HttpMethod =
  | 'GET'
  | 'HEAD'
  | 'POST'
  | 'PUT'
  | 'PATCH'
  | 'DELETE'
  | 'OPTIONS'
  // WebDAV's (RFC 4918)
  | 'PROPFIND'
  | 'PROPPATCH'
  | 'MKCOL'
  | 'COPY'
  | 'MOVE'
  | 'LOCK'
  | 'UNLOCK';
/** `METHOD /path` in Fastify's own syntax (`:id`, `*`), the key of the access table. */
export type RouteKey = `${HttpMethod} /${string}`;

/** The verbs the method-override convention lets a POST stand for (`_method` in the body). */
export const OVERRIDABLE_METHODS: readonly HttpMethod[] = ['PATCH', 'PUT', 'DELETE'];

export interface ServedRoute {
  key: RouteKey;
  method: HttpMethod;
  url: string;
  /** Listed in the OpenAPI document (hidden routes and plugins' own routes are not). */
  documented: boolean;
  /** A GET whose HEAD twin is served too (Fastify adds one to every GET). */
  head: boolean;
  /** A PATCH/PUT/DELETE that also answers POST with `_method` (the method-override plugin). */
  overridePost: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

/** `/a/{id}` of OpenAPI -> `/a/:id` of Fastify. */
export function fastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Every method and URL of Fastify's radix tree, read from `printRoutes`: each line is a node whose
 * label continues its parent's path, followed by the methods served there, if any. Fastify keeps no
 * route list, and this is the one view that includes routes registered before a test could add an
 * onRoute hook. (The `commonPrefix: false` view drops the prefix of some wildcard routes.)
 */
function routeTree(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

/**
 * Everything the app answers, one entry per route a caller must be authorized for: HEAD folds into
 * its GET, a method-override POST into its PATCH/PUT/DELETE. Each entry is checked with
 * `hasRoute`, so a change in the tree's print format fails loudly instead of hiding routes.
 */
export function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const document = app.swagger() as unknown as OpenApiDocument;
  const documented = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths))
    for (const method of Object.keys(operations))
      documented.add(`${method.toUpperCase()} ${fastifyPath(path)}`);

  const methodsByUrl = new Map<string, Set<string>>();
  for (const { method, url } of routeTree(app)) {
    if (!app.hasRoute({ method: method as HTTPMethods, url }))
      throw new Error(`route inventory misread the route tree: ${method} ${url} is not served`);
    (methodsByUrl.get(url) ?? methodsByUrl.set(url, new Set()).get(url)!).add(method);
  }
  for (const key of documented) {
    const [method, url] = key.split(' ') as [string, string];
    if (!methodsByUrl.get(url)?.has(method))
      throw new Error(`route inventory missed ${key} of the OpenAPI document`);
  }

  const routes: ServedRoute[] = [];
  for (const [url, methods] of methodsByUrl) {
    for (const method of methods) {
      const key = `${method} ${url}` as RouteKey;
      if (method === 'HEAD' && methods.has('GET')) continue;
      // A POST beside a PATCH/PUT/DELETE is their marker's, unless it is a route of its own.
      if (method === 'POST' && app.markerPosts.has(url)) continue;
      routes.push({
        key,
        method: method as HttpMethod,
        url,
        documented: documented.has(key),
        head: method === 'GET' && methods.has('HEAD'),
        overridePost: OVERRIDABLE_METHODS.includes(method as HttpMethod) && methods.has('POST'),
      });
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}
