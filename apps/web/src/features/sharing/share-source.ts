import type { SearchResults, SharePermission } from '@atelier/contracts';
import { api } from '../../lib/api-client';
import { zipItems, type ItemRef } from '../files/files-api';
import type { SearchableSource, VersionAddresses } from '../files/file-source';
import { createTokenSource, watchAccess, type AccessLoss } from '../files/token-source';
import { anonymous, sharingKeys } from './sharing-api';

interface ShareSourceOptions {
  token: string;
  permission: SharePermission;
  /** The shared folder's id, once the visitor may see it: the top of the share on the server's side. */
  rootId: string | null;
  /** Told about an answer that may change which share page is right (see ShareLayout). */
  onAccessLost: (status: AccessLoss) => void;
}

/** The bytes of an item inside the share; `download` asks for an attachment. */
export function sharedFileUrl(token: string, item: { id: string }, download = false): string {
  return `/file/${item.id}/shared/${token}${download ? '?download=1' : ''}`;
}

/** One archive of a selection inside the share; of the whole share when nothing is picked. */
export function sharedZipUrl(token: string, items: readonly ItemRef[]): string {
  return items.length === 0
    ? `/api/sharing/zip/${token}`
    : `/api/sharing/zip/${token}?items=${zipItems(items)}`;
}

/** A file's versions inside the share: every visitor reads them, an editor's link restores and deletes them. */
export function sharedVersions(token: string): VersionAddresses {
  return {
    key: (fileId) => [...sharingKeys.visit(token), 'versions', fileId],
    list: (fileId) => `/api/sharing/versions/${fileId}/${token}`,
    version: (fileId, versionId, download = false) =>
      `/api/sharing/version/${fileId}/${versionId}/${token}${download ? '?download=1' : ''}`,
    restore: (fileId, versionId) => `/api/sharing/version/${fileId}/${versionId}/restore/${token}`,
    anonymous: true,
  };
}

/** A share link's folder as a file source, through the `/api/sharing/…/{token}` calls. */
export function createShareSource({
  token,
  permission,
  rootId,
  onAccessLost,
}: ShareSourceOptions): SearchableSource {
  const source = createTokenSource({
    kind: 'share',
    writable: permission === 'editor',
    scope: sharingKeys.visit(token),
    paths: {
      listing: (folder) => `/api/sharing/folders/${folder}/${token}`,
      navigation: `/api/sharing/navigation/${token}`,
      createFolder: `/api/sharing/create-folder/${token}`,
      rename: (id) => `/api/sharing/rename/${id}/${token}`,
      move: `/api/sharing/move/${token}`,
      remove: `/api/sharing/remove/${token}`,
      upload: `/api/sharing/upload/chunks/${token}`,
    },
    rootId,
    bytes: {
      fileUrl: (item, download) => sharedFileUrl(token, item, download),
      thumbnailUrl: (item, size) =>
        item.attributes.thumbnail ? `/thumbnail/${size}/${item.id}/shared/${token}` : null,
      zipUrl: (items) => sharedZipUrl(token, items),
    },
    folderPath: (id) => (id ? `/share/${token}/files/${id}` : `/share/${token}/files`),
    onAccessLost,
  });
  const guard = watchAccess(onAccessLost);
  return {
    ...source,
    versions: sharedVersions(token),
    // The share's own: an upload request never looks beyond what it sent.
    search: {
      key: (query) => [...sharingKeys.visit(token), 'search', query],
      find: (query, signal) =>
        guard(
          api.get<SearchResults>(`/api/sharing/search/${token}`, { ...anonymous, query: { query }, signal }),
        ).then((answer) => answer.data.map(source.normalise)),
    },
  };
}
