import type { NavigationTree, SharePermission } from '@atelier/contracts';
import { api, ApiError } from '../../lib/api-client';
import { LISTING_PAGE_SIZE, zipItems, type FileItem, type ItemPage, type ItemRef } from '../files/files-api';
import type { FileSource } from '../files/file-source';
import { anonymous, sharingKeys } from './sharing-api';

/** The answers that say the visitor's access changed: a password to give, a link revoked or expired. */
export type AccessLoss = 401 | 404 | 410;
const ACCESS_LOSSES: readonly number[] = [401, 404, 410];

interface ShareSourceOptions {
  token: string;
  permission: SharePermission;
  /** The shared folder's id, once the visitor may see it: the top of the share on the server's side. */
  rootId: string | null;
  /** Told about an answer that may change which share page is right (see ShareLayout). */
  onAccessLost: (status: AccessLoss) => void;
}

/** Passes a share call through, telling `onAccessLost` when its refusal may change the right page. */
export function watchAccess(onAccessLost: (status: AccessLoss) => void) {
  return async function watched<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof ApiError && ACCESS_LOSSES.includes(error.status))
        onAccessLost(error.status as AccessLoss);
      throw error;
    }
  };
}

/** The bytes of an item inside the share; `download` asks for an attachment. */
export function sharedFileUrl(token: string, item: { id: string }, download = false): string {
  return `/file/${item.id}/shared/${token}${download ? '?download=1' : ''}`;
}

/**
 * A share link's folder as a file source: the owner's file manager, reading and writing through the
 * `/api/sharing/…/{token}` calls. The browser calls the shared folder "the top" (null), like home.
 */
export function createShareSource({
  token,
  permission,
  rootId,
  onAccessLost,
}: ShareSourceOptions): FileSource {
  const scope = sharingKeys.visit(token);
  const guard = watchAccess(onAccessLost);

  const toServer = (folderId: string | null) => folderId ?? rootId;
  const normalise = (item: FileItem): FileItem =>
    rootId !== null && item.attributes.parent_id === rootId
      ? {
          ...item,
          attributes: { ...item.attributes, parent_id: null },
          relationships: { ...item.relationships, folder: { data: null } },
        }
      : item;
  const refs = (items: readonly ItemRef[]) => items.map(({ id, type }) => ({ id, type }));

  return {
    kind: 'share',
    writable: permission === 'editor',
    keys: { listings: [...scope, 'listing'], navigation: [...scope, 'navigation'] },
    fetchListingPage: (listing, order, page, signal) => {
      const folder = ('id' in listing ? listing.id : null) ?? 'all';
      return guard(
        api.get<ItemPage>(`/api/sharing/folders/${folder}/${token}`, {
          ...anonymous,
          query: { sort: order.sort, direction: order.direction, page, per_page: LISTING_PAGE_SIZE },
          signal,
        }),
      ).then((answer) => ({ ...answer, data: answer.data.map(normalise) }));
    },
    fetchNavigation: () =>
      guard(api.get<NavigationTree>(`/api/sharing/navigation/${token}`, anonymous)).then((tree) => tree.data),
    createFolder: (body) =>
      guard(
        api.post<{ data: FileItem }>(
          `/api/sharing/create-folder/${token}`,
          { ...body, parent_id: toServer(body.parent_id) },
          anonymous,
        ),
      ).then((answer) => normalise(answer.data)),
    rename: (item, changes) =>
      guard(
        api.post<{ data: FileItem }>(
          `/api/sharing/rename/${item.id}/${token}`,
          { ...changes, type: item.type, _method: 'patch' },
          anonymous,
        ),
      ).then((answer) => normalise(answer.data)),
    move: (toId, items) =>
      guard(api.post(`/api/sharing/move/${token}`, { to_id: toServer(toId), items: refs(items) }, anonymous)),
    // What an editor deletes goes to the owner's trash: a share never deletes for good.
    remove: (items) =>
      guard(
        api.post(
          `/api/sharing/remove/${token}`,
          { items: items.map(({ id, type }) => ({ id, type, force_delete: false })) },
          anonymous,
        ),
      ),
    fileUrl: (item, download) => sharedFileUrl(token, item, download),
    thumbnailUrl: (item, size) =>
      item.attributes.thumbnail ? `/thumbnail/${size}/${item.id}/shared/${token}` : null,
    zipUrl: (items) =>
      items.length === 0 ? `/api/sharing/zip/${token}` : `/api/sharing/zip/${token}?items=${zipItems(items)}`,
    folderPath: (id) => (id ? `/share/${token}/files/${id}` : `/share/${token}/files`),
    upload: { endpoint: `/api/sharing/upload/chunks/${token}`, parentId: toServer },
    normalise,
  };
}
