import type { DavLockRow } from './webdav.tables';
import type { PropertyOutcome } from './webdav.refusals';
import { DAV, type PropertyName, type PropfindRequest } from './webdav.xml';

/** A resource as PROPFIND shows it: an item, a namespace root or one of the virtual collections. */
export interface DavResource {
  href: string;
  collection: boolean;
  displayName: string;
  createdAt: string | null;
  modifiedAt: string | null;
  size: number | null;
  mimetype: string | null;
  etag: string | null;
  /** RFC 4331, on collections; `available` null when the account has no limit. */
  quota: { used: number; available: number | null } | null;
  dead: readonly { namespace: string; name: string; value: string }[];
  /** The locks on the resource, each with the href of the resource it was taken on. */
  locks: readonly ActiveLock[];
  /** What the Nextcloud and ownCloud clients read (oc: and nc: properties); none for a virtual collection. */
  sync?: SyncProperties | null;
}

/** The properties sync clients read besides DAV's own. */
export interface SyncProperties {
  /** The item's id (oc:fileid) and Nextcloud's form of it with the instance (oc:id). */
  fileId: string;
  id: string;
  /** Nextcloud's letters for what the signed-in user may do: R share, G read, D delete, N rename, V move, W write, C/K make files/folders, S shared with them, M mounted. */
  permissions: string;
  /** A file's bytes, or everything below a folder. */
  size: number;
  /** `SHA1:… MD5:…` as verified on upload; null when none was given with the current bytes. */
  checksums: string | null;
  favorite: boolean;
  /** Nextcloud's share types: 3 for a public link. */
  shareTypes: readonly number[];
  hasPreview: boolean;
}

export const OC = 'http://owncloud.org/ns';
export const NC = 'http://nextcloud.org/ns';

/** The oc: and nc: properties, answered when asked for by name (allprop stays DAV's). */
const SYNC_LIVE: Record<string, (sync: SyncProperties) => string> = {
  [`${OC} id`]: (p) => escape(p.id),
  [`${OC} fileid`]: (p) => escape(p.fileId),
  [`${OC} permissions`]: (p) => p.permissions,
  [`${OC} size`]: (p) => String(p.size),
  [`${OC} checksums`]: (p) => (p.checksums ? `<oc:checksum>${escape(p.checksums)}</oc:checksum>` : ''),
  [`${OC} favorite`]: (p) => (p.favorite ? '1' : '0'),
  [`${OC} share-types`]: (p) => p.shareTypes.map((type) => `<oc:share-type>${type}</oc:share-type>`).join(''),
  [`${NC} has-preview`]: (p) => String(p.hasPreview),
};
const SYNC_PREFIX: Record<string, string> = { [OC]: 'oc', [NC]: 'nc' };

export interface ActiveLock {
  lock: DavLockRow;
  rootHref: string;
}

/** Live properties, in the order allprop lists them; quota properties only when asked for (RFC 4331). */
const LIVE: Record<string, (resource: DavResource) => string | null> = {
  creationdate: (r) => (r.createdAt ? escape(new Date(r.createdAt).toISOString()) : null),
  displayname: (r) => escape(r.displayName),
  getcontentlength: (r) => (r.collection || r.size === null ? null : String(r.size)),
  getcontenttype: (r) => (r.collection || !r.mimetype ? null : escape(r.mimetype)),
  getetag: (r) => (r.etag ? escape(r.etag) : null),
  getlastmodified: (r) => (r.modifiedAt ? new Date(r.modifiedAt).toUTCString() : null),
  resourcetype: (r) => (r.collection ? '<D:collection/>' : ''),
  supportedlock: () =>
    ['exclusive', 'shared']
      .map(
        (scope) =>
          `<D:lockentry><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`,
      )
      .join(''),
  lockdiscovery: (r) => r.locks.map(activeLockXml).join(''),
  'quota-used-bytes': (r) => (r.quota ? String(r.quota.used) : null),
  'quota-available-bytes': (r) =>
    r.quota?.available != null ? String(Math.max(0, r.quota.available)) : null,
};
const NOT_IN_ALLPROP = new Set(['quota-used-bytes', 'quota-available-bytes']);

/** Properties the server computes: a PROPPATCH may not change them. */
export function isLiveProperty(property: PropertyName): boolean {
  return (
    (property.namespace === DAV && property.name in LIVE) ||
    `${property.namespace} ${property.name}` in SYNC_LIVE
  );
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

export const XML_TYPE = 'application/xml; charset=utf-8';
const HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/**
 * The multistatus answer of a PROPFIND: one response per resource, found and missing properties
 * apart, written out one resource at a time as the resources are read.
 */
export async function* propfindXml(
  resources: AsyncIterable<DavResource>,
  request: PropfindRequest,
): AsyncGenerator<string> {
  yield `${HEAD}<D:multistatus xmlns:D="DAV:" xmlns:oc="${OC}" xmlns:nc="${NC}">`;
  for await (const resource of resources) yield responseXml(resource, request);
  yield '</D:multistatus>';
}

function responseXml(resource: DavResource, request: PropfindRequest): string {
  const parts = [`<D:response><D:href>${escape(resource.href)}</D:href>`];
  if (request.kind === 'propname') {
    const names = Object.keys(LIVE)
      .filter((name) => LIVE[name]!(resource) !== null)
      .map((name) => `<D:${name}/>`);
    names.push(...resource.dead.map((p, i) => element(p, i, '')));
    parts.push(propstat(names.join(''), 200));
  } else if (request.kind === 'allprop') {
    const found: string[] = [];
    for (const [name, value] of Object.entries(LIVE)) {
      const text = NOT_IN_ALLPROP.has(name) ? null : value(resource);
      if (text !== null) found.push(`<D:${name}>${text}</D:${name}>`);
    }
    found.push(...resource.dead.map((p, i) => element(p, i, p.value)));
    parts.push(propstat(found.join(''), 200));
  } else {
    const found: string[] = [];
    const missing: string[] = [];
    request.names.forEach((property, i) => {
      const live = property.namespace === DAV ? LIVE[property.name]?.(resource) : undefined;
      const sync = resource.sync && SYNC_LIVE[`${property.namespace} ${property.name}`]?.(resource.sync);
      const dead = resource.dead.find((p) => p.namespace === property.namespace && p.name === property.name);
      if (live != null) found.push(`<D:${property.name}>${live}</D:${property.name}>`);
      else if (typeof sync === 'string') {
        const tag = `${SYNC_PREFIX[property.namespace]}:${property.name}`;
        found.push(`<${tag}>${sync}</${tag}>`);
      } else if (dead) found.push(element(dead, i, dead.value));
      else missing.push(element(property, i, ''));
    });
    if (found.length > 0) parts.push(propstat(found.join(''), 200));
    if (missing.length > 0) parts.push(propstat(missing.join(''), 404));
  }
  parts.push('</D:response>');
  return parts.join('');
}

/** The status each property of a PROPPATCH answers with (RFC 4918 §9.2). */
const PROPERTY_STATUS: Record<PropertyOutcome, number> = {
  applied: 200,
  protected: 403,
  over_limit: 507,
  not_applied: 424,
};

/** The multistatus answer of a PROPPATCH: each property named with the status its outcome has. */
export function proppatchXml(
  href: string,
  outcomes: readonly { property: PropertyName; outcome: PropertyOutcome }[],
): string {
  const results = outcomes.map((o) => ({ property: o.property, status: PROPERTY_STATUS[o.outcome] }));
  const statuses = [...new Set(results.map((r) => r.status))];
  const propstats = statuses.map((status) =>
    propstat(results.map((r, i) => (r.status === status ? element(r.property, i, '') : '')).join(''), status),
  );
  return `${HEAD}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escape(href)}</D:href>${propstats.join('')}</D:response></D:multistatus>`;
}

/** The answer of a LOCK: the lock discovery of the lock taken or refreshed. */
export function lockXml(active: ActiveLock): string {
  return `${HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(active)}</D:lockdiscovery></D:prop>`;
}

/** An error body naming the precondition that failed (RFC 4918 §16). */
export function errorXml(condition: string): string {
  return `${HEAD}<D:error xmlns:D="DAV:"><D:${condition}/></D:error>`;
}

function activeLockXml({ lock, rootHref }: ActiveLock): string {
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === 'infinity' ? 'infinity' : '0'}</D:depth>` +
    (lock.owner_xml ? `<D:owner>${lock.owner_xml}</D:owner>` : '') +
    `<D:timeout>Second-${lock.timeout_seconds}</D:timeout>` +
    `<D:locktoken><D:href>${escape(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escape(rootHref)}</D:href></D:lockroot></D:activelock>`
  );
}

function propstat(props: string, status: number): string {
  return `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 ${status} ${STATUS_TEXT[status]}</D:status></D:propstat>`;
}

/** A property element in its own namespace (`xmlns=""` for none), its value kept as stored XML. */
function element(property: PropertyName, index: number, value: string): string {
  if (property.namespace === DAV) return `<D:${property.name}>${value}</D:${property.name}>`;
  if (property.namespace === '') return `<${property.name} xmlns="">${value}</${property.name}>`;
  const prefix = `p${index}`;
  return `<${prefix}:${property.name} xmlns:${prefix}="${escape(property.namespace)}">${value}</${prefix}:${property.name}>`;
}

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
