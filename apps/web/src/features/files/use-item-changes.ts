import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { useConfig } from '../session/session-queries';
import { teamsKeys } from '../teams/teams-api';
import { filesKeys } from './files-api';

/**
 * Files changed through another client (a drive mounted over WebDAV): the open listings, trees and
 * storage figures fetch again. Unchanged pages cost a 304 thanks to the listings' ETags.
 */
export function useItemChanges() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    return subscribeRealtime('items.changed', () => {
      void client.invalidateQueries({ queryKey: filesKeys.all });
      void client.invalidateQueries({ queryKey: teamsKeys.all });
    });
  }, [client, realtimeOn]);
}
