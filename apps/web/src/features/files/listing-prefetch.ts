import type { QueryClient } from '@tanstack/react-query';
import { ownerSource } from './file-source';
import { listingQuery } from './listing-cache';
import { readSortOrder } from './view-preferences';
import { teamFolderIdsQuery } from '../teams/teams-api';

const MY_FILES_PATH = /^\/platform\/files(?:\/([^/]+))?\/?$/;

/**
 * A cold load of a folder of My files asks for its first page while the file manager's modules load
 * (they are many, six at a time), so the list can show as soon as the screen renders. The ids of the
 * owner's team folders come with it: every row reads them for its mark, and arriving after the list they
 * rendered all its rows a second time. Signed out, the 401 they get forgets the session as any other would.
 */
export function prefetchOpenFolder(queryClient: QueryClient, pathname: string): void {
  const match = MY_FILES_PATH.exec(pathname);
  if (!match) return;
  void queryClient.prefetchInfiniteQuery(
    listingQuery(ownerSource, { kind: 'folder', id: match[1] ?? null }, readSortOrder()),
  );
  void queryClient.prefetchQuery(teamFolderIdsQuery);
}
