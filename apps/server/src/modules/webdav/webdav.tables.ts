import type { Selectable } from 'kysely';

/** A dead property a client set on an item (see migration 0022); its bytes count in its owner's usage (0028). */
export interface DavPropertiesTable {
  item_id: string;
  /** The item's owner, whose quota the property counts against. */
  owner_id: string;
  namespace: string;
  name: string;
  value: string;
  /** What the property counts in its owner's usage: see propertyBytes. */
  bytes: number;
}

/** The UTF-8 bytes of a property's namespace, name and value: its size on the owner's quota. */
export function propertyBytes(property: { namespace: string; name: string; value: string }): number {
  return (
    Buffer.byteLength(property.namespace) +
    Buffer.byteLength(property.name) +
    Buffer.byteLength(property.value)
  );
}

export type LockScope = 'exclusive' | 'shared';
export type LockDepth = '0' | 'infinity';

/** A write lock on a path of its owner's tree (see migration 0022). */
export interface DavLocksTable {
  token: string;
  owner_id: string;
  path: string;
  depth: LockDepth;
  scope: LockScope;
  principal_id: string;
  owner_xml: string;
  timeout_seconds: number;
  expires_at: string;
}

/** What a client said of a file's current bytes (migration 0044): valid while the file has `content_id`. */
export interface DavFileMetaTable {
  item_id: string;
  content_id: string;
  /** X-OC-MTime: when the bytes were last modified on the client. */
  modified_at: string | null;
  /** OC-Checksum as verified: `SHA1:…`, `MD5:…` or `ADLER32:…`, space-separated. */
  checksums: string | null;
}

export type DavPropertyRow = Selectable<DavPropertiesTable>;
export type DavFileMetaRow = Selectable<DavFileMetaTable>;
export type DavLockRow = Selectable<DavLocksTable>;

declare module '../../db/schema' {
  interface DB {
    dav_properties: DavPropertiesTable;
    dav_locks: DavLocksTable;
    dav_file_meta: DavFileMetaTable;
  }
}
