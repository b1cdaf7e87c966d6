import type { DavLockRow, LockDepth, LockScope } from './webdav.tables';

/** One condition of an `If` header list: a state token or an entity tag, possibly negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** One list of an `If` header; `resource` is the tagged list's URL path, null for the request URL. */
export interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

/** What a condition is checked against: the resource's entity tag and the tokens of the locks on it. */
export interface ResourceState {
  etag: string | null;
  lockTokens: ReadonlySet<string>;
}

export const LOCK_TOKEN_PREFIX = 'opaquelocktoken:';
/** Locks last an hour unless the client asks otherwise, and never more than a day. */
export const DEFAULT_LOCK_SECONDS = 3600;
export const MAX_LOCK_SECONDS = 86_400;
/**
 * A lock's owner text is the client's note of who holds it (a name, a URL): kept whole, it is shown in
 * every PROPFIND of the path, so it is held to a size no client's note reaches (413 past it).
 */
export const LOCK_OWNER_MAX_BYTES = 1024;
/** Live locks in one owner's tree: past it a new lock is refused (507), so locks cannot pile up unbounded. */
export const LOCKS_PER_OWNER_MAX = 1000;

/**
 * Parses an `If` header (RFC 4918 §10.4): untagged `(<token> ["etag"]) (Not <token>)` or tagged
 * `<url> (…)` lists. Null when the header is malformed.
 */
export function parseIfHeader(header: string): IfList[] | null {
  const lists: IfList[] = [];
  let resource: string | null = null;
  let rest = header.trim();
  while (rest.length > 0) {
    const tagged = /^<([^>]*)>\s*/.exec(rest);
    if (tagged) {
      resource = tagged[1]!;
      rest = rest.slice(tagged[0].length);
      continue;
    }
    const list = /^\(([^)]*)\)\s*/.exec(rest);
    if (!list) return null;
    const conditions = parseConditions(list[1]!);
    if (!conditions) return null;
    lists.push({ resource, conditions });
    rest = rest.slice(list[0].length);
  }
  return lists.length > 0 ? lists : null;
}

function parseConditions(text: string): IfCondition[] | null {
  const conditions: IfCondition[] = [];
  const pattern = /\s*(Not\s+)?(?:<([^>]*)>|\[([^\]]*)\])/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  while ((match = pattern.exec(text)) !== null) {
    conditions.push({
      not: Boolean(match[1]),
      ...(match[2] !== undefined ? { token: match[2] } : { etag: match[3]! }),
    });
    end = pattern.lastIndex;
  }
  return conditions.length > 0 && text.slice(end).trim() === '' ? conditions : null;
}

/** Every state token a header names: the tokens the request submits. */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  return new Set(lists.flatMap((list) => list.conditions.flatMap((c) => (c.token ? [c.token] : []))));
}

/** A list holds when each of its conditions holds; a header holds when one of its lists does. */
export function listHolds(list: IfList, state: ResourceState): boolean {
  return list.conditions.every((condition) => {
    const holds = condition.token
      ? state.lockTokens.has(condition.token)
      : state.etag !== null && weakEtag(condition.etag!) === weakEtag(state.etag);
    return holds !== condition.not;
  });
}

function weakEtag(etag: string): string {
  return etag.replace(/^W\//, '');
}

/** Whether `path` is strictly below `ancestor` (paths of an owner's tree, `/` its root). */
export function isBelow(path: string, ancestor: string): boolean {
  return ancestor === '/' ? path !== '/' : path.startsWith(`${ancestor}/`);
}

/** Whether a lock applies to the path: on it, or on a folder above it with depth infinity. */
export function covers(lock: Pick<DavLockRow, 'path' | 'depth'>, path: string): boolean {
  return lock.path === path || (lock.depth === 'infinity' && isBelow(path, lock.path));
}

/** Whether a new lock would conflict with those held: any overlap unless both are shared. */
export function conflictsWith(
  held: readonly DavLockRow[],
  wanted: { path: string; depth: LockDepth; scope: LockScope },
  now: string,
): boolean {
  return held.some(
    (lock) =>
      lock.expires_at > now &&
      (lock.scope === 'exclusive' || wanted.scope === 'exclusive') &&
      (covers(lock, wanted.path) || (wanted.depth === 'infinity' && isBelow(lock.path, wanted.path))),
  );
}

/** `Timeout: Second-600, Infinite`: the first the server accepts, capped; an hour when none is given. */
export function lockSeconds(header: string | undefined): number {
  for (const option of (header ?? '').split(',').map((o) => o.trim())) {
    if (/^infinite$/i.test(option)) return MAX_LOCK_SECONDS;
    const seconds = /^second-(\d{1,10})$/i.exec(option);
    if (seconds) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(seconds[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}
