import type { NavigationTree } from '@atelier/contracts';
import { api, ApiError } from '../../lib/api-client';
import { anonymous } from '../sharing/sharing-api';
import { LISTING_PAGE_SIZE, type FileItem, type ItemPage, type ItemRef } from './files-api';
import type { FileSource, ItemBytes } from './file-source';

/** The answers that say a token's access changed: a password to give, a link revoked, closed or expired. */
export type AccessLoss = 401 | 404 | 410;
const ACCESS_LOSSES: readonly number[] = [401, 404, 410];

const isAccessLoss = (status: number): status is AccessLoss => ACCESS_LOSSES.includes(status);

/** Passes a token call through, telling `onAccessLost` when its refusal may change the right page. */
export function watchAccess(onAccessLost: (status: AccessLoss) => void) {
  return async function watched<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof ApiError && isAccessLoss(error.status)) onAccessLost(error.status);
      throw error;
    }
  };
}

/** The addresses of one token's calls. */
export interface TokenPaths {
  listing(folder: string): string;
  navigation: string;
  createFolder: string;
  rename(id: string): string;
  move: string;
  remove: string;
  upload: string;
}

interface TokenSourceOptions {
  kind: 'share' | 'upload-request';
  writable: boolean;
  /** The cache key every query of this token starts with. */
  scope: readonly unknown[];
  paths: TokenPaths;
  /** The token's folder id, once the visitor may see it: the top on the server's side. */
  rootId: string | null;
  bytes: ItemBytes | null;
  folderPath(id: string | null): string;
  /** Told about an answer that may change which page is right (the token's detail is read again). */
  onAccessLost: (status: AccessLoss) => void;
}

/**
 * A folder reached through a public token (a share link, an upload request) as a file source: the
 * owner's file manager, reading and writing through the token's calls without an account session.
 * The browser calls the token's folder "the top" (null), like home.
 */
export function createTokenSource({
  kind,
  writable,
  scope,
  paths,
  rootId,
  bytes,
  folderPath,
  onAccessLost,
}: TokenSourceOptions): FileSource {
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
    kind,
    writable,
    keys: { listings: [...scope, 'listing'], navigation: [...scope, 'navigation'] },
    fetchListingPage: (listing, order, { page, cursor }, signal) => {
      const folder = ('id' in listing ? listing.id : null) ?? 'all';
      return guard(
        api.get<ItemPage>(paths.listing(folder), {
          ...anonymous,
          query: { sort: order.sort, direction: order.direction, page, per_page: LISTING_PAGE_SIZE, cursor },
          signal,
        }),
      ).then((answer) => ({ ...answer, data: answer.data.map(normalise) }));
    },
    fetchNavigation: () =>
      guard(api.get<NavigationTree>(paths.navigation, anonymous)).then((tree) => tree.data),
    createFolder: (body) =>
      guard(
        api.post<{ data: FileItem }>(
          paths.createFolder,
          { ...body, parent_id: toServer(body.parent_id) },
          anonymous,
        ),
      ).then((answer) => normalise(answer.data)),
    rename: (item, changes) =>
      guard(
        api.post<{ data: FileItem }>(
          paths.rename(item.id),
          { ...changes, type: item.type, _method: 'patch' },
          anonymous,
        ),
      ).then((answer) => normalise(answer.data)),
    move: (toId, items) =>
      guard(api.post(paths.move, { to_id: toServer(toId), items: refs(items) }, anonymous)),
    // What a visitor deletes goes to the owner's trash: a token never deletes for good.
    remove: (items) =>
      guard(
        api.post(
          paths.remove,
          { items: items.map(({ id, type }) => ({ id, type, force_delete: false })) },
          anonymous,
        ),
      ),
    bytes,
    folderPath,
    upload: {
      endpoint: paths.upload,
      parentId: toServer,
      // The queue sends the chunks itself; a link that lapses mid-upload must still change the page.
      fetch: async (input, init) => {
        const answer = await fetch(input, init);
        if (isAccessLoss(answer.status)) onAccessLost(answer.status);
        return answer;
      },
    },
    normalise,
  };
}
