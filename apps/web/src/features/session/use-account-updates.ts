import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { useConfig, userQueryKey } from './session-queries';

/**
 * An administrator changed this account (role, capacity, name): fetch it again, so the navigation,
 * the restriction bar and the upload checks follow at once instead of after the cache's minute.
 */
export function useAccountUpdates() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    return subscribeRealtime('user.updated', () => {
      void client.invalidateQueries({ queryKey: userQueryKey });
    });
  }, [client, realtimeOn]);
}
