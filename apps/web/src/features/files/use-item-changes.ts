import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { projectKeys } from '../projects/projects-api';
import { useConfig } from '../session/session-queries';
import { teamsKeys } from '../teams/teams-api';
import { filesKeys } from './files-api';

/** A burst of changes (a folder arriving file by file) fetches at its start, then at most once per this. */
export const ITEM_CHANGES_BURST_MS = 500;

/**
 * Items changed elsewhere (another tab, a team member, a share link's editor, an upload request,
 * a drive mounted over WebDAV, a render): the open listings, trees, projects and storage figures
 * fetch again. Unchanged pages cost a 304 thanks to the listings' ETags.
 */
export function useItemChanges() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    const refresh = () => {
      void client.invalidateQueries({ queryKey: filesKeys.all });
      void client.invalidateQueries({ queryKey: teamsKeys.all });
      // Render progress lives only in the cache: it is not fetched again.
      void client.invalidateQueries({
        queryKey: projectKeys.all,
        predicate: (query) => query.queryKey[1] !== 'progress',
      });
    };
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let missed = false;
    const settle = () => {
      quiet = missed ? setTimeout(settle, ITEM_CHANGES_BURST_MS) : undefined;
      if (missed) refresh();
      missed = false;
    };
    const unsubscribe = subscribeRealtime('items.changed', () => {
      if (quiet) {
        missed = true;
        return;
      }
      refresh();
      quiet = setTimeout(settle, ITEM_CHANGES_BURST_MS);
    });
    return () => {
      clearTimeout(quiet);
      unsubscribe();
    };
  }, [client, realtimeOn]);
}
