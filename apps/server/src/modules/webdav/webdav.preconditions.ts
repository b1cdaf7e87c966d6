import type { IncomingHttpHeaders } from 'node:http';
import { DavRefusal } from './webdav.refusals';

/** `*`, or the entity tags a condition lists (unquoted, weak ones compared as strong). */
type EntityTags = '*' | string[];

/**
 * RFC 9110's conditions on a write: If-Match and If-None-Match. Sync clients put a file they changed
 * with `If-Match` of the tag they last saw, and count on 412 when someone else changed it meanwhile
 * (they then keep both copies instead of overwriting the other).
 */
export interface EntityConditions {
  ifMatch: EntityTags | null;
  ifNoneMatch: EntityTags | null;
}

export function entityConditionsOf(headers: IncomingHttpHeaders): EntityConditions {
  return { ifMatch: tagsOf(headers['if-match']), ifNoneMatch: tagsOf(headers['if-none-match']) };
}

/** Refuses (412) a write whose conditions the target fails: its entity tag now, or null when it has none. */
export function assertEntityConditions(
  conditions: EntityConditions | undefined,
  target: { exists: boolean; etag: string | null },
): void {
  if (!conditions) return;
  const matches = (tags: EntityTags) =>
    tags === '*' ? target.exists : target.etag !== null && tags.includes(unquoted(target.etag));
  if (conditions.ifMatch && !matches(conditions.ifMatch)) throw new DavRefusal('precondition_failed');
  if (conditions.ifNoneMatch && matches(conditions.ifNoneMatch)) throw new DavRefusal('precondition_failed');
}

function tagsOf(value: string | string[] | undefined): EntityTags | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (text.trim() === '*') return '*';
  return text
    .split(',')
    .map((tag) => unquoted(tag.trim().replace(/^W\//, '')))
    .filter((tag) => tag.length > 0);
}

const unquoted = (tag: string) => tag.replace(/^"(.*)"$/, '$1');

/** `Overwrite` (RFC 4918 §10.6): true unless `F`; anything but `T` or `F` is malformed. */
export function overwriteOf(headers: IncomingHttpHeaders): boolean {
  const overwrite = headers.overwrite ?? 'T';
  if (overwrite !== 'T' && overwrite !== 'F') throw new DavRefusal('malformed');
  return overwrite === 'T';
}
