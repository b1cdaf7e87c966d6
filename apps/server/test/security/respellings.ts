/**
 * Other ways of writing a request path. The router decodes percent-escapes and the HTTP layer of
 * `app.inject` (like a normalising proxy) resolves dot segments, so every spelling `sameRoute` gives
 * reaches the route the plain path reaches and must be answered exactly as it is. An escaped slash is
 * no separator to the router: `elsewhere` spellings reach no route at all.
 */

function splitFirstSegment(path: string): { first: string; rest: string } {
  const match = /^\/([^/?]*)(.*)$/s.exec(path);
  if (!match) throw new Error(`not an absolute path: ${path}`);
  return { first: match[1]!, rest: match[2]! };
}

/** `%61` for `a`; lower- and upper-case hex digits in turn, both of which decode alike. */
function escaped(character: string, upper: boolean): string {
  const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex}`;
}

export interface Spelling {
  path: string;
  /**
   * `escaped`: a character of the first segment percent-escaped, which the router decodes but the
   * request's URL keeps; `dots`: escaped dot segments, resolved before Fastify sees the request.
   */
  kind: 'escaped' | 'dots';
}

/**
 * Spellings of `path` that reach the same route: each character of the first segment escaped in
 * turn (`/%61pi/…`, `/a%70i/…`, `/ap%69/…`), then dot segments written escaped (`/%2e/api/…`,
 * `/api/%2E%2E/api/…`).
 */
export function sameRoute(path: string): Spelling[] {
  const { first, rest } = splitFirstSegment(path);
  const letters = [...first].map((character, i) => ({
    path: `/${first.slice(0, i)}${escaped(character, i % 2 === 1)}${first.slice(i + 1)}${rest}`,
    kind: 'escaped' as const,
  }));
  return [
    ...letters,
    { path: `/%2e/${first}${rest}`, kind: 'dots' },
    { path: `/${first}/%2E%2E/${first}${rest}`, kind: 'dots' },
  ];
}

/** The slash after the first segment escaped (`/api%2Fuser`): a path no route answers. */
export function elsewhere(path: string): string {
  const { first, rest } = splitFirstSegment(path);
  return rest.startsWith('/') ? `/${first}%2F${rest.slice(1)}` : `/${first}%2F${rest}`;
}

/** Applies `respell` to the path of a URL, keeping its query. */
export function respellPath(url: string, respell: (path: string) => string): string {
  const at = url.indexOf('?');
  return at === -1 ? respell(url) : respell(url.slice(0, at)) + url.slice(at);
}
