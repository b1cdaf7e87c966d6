import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { filesKeys } from '../files/files-api';
import { useConfig, userQueryKey } from '../session/session-queries';
import { uploadRequestsKeys } from '../upload-requests/upload-requests-api';
import { notificationsQueryKey } from './notification-queries';
import { showNotificationToast } from './notification-toasts';

const SOUND_URL = '/audio/blop.wav';

/**
 * Each notification pushed to this user: a sound, a toast, and a fresh badge count. One taken back
 * (an invitation whose folder went to the trash or for good) leaves the open centre and the badge.
 */
export function useIncomingNotifications() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    const readAgain = () => {
      void client.invalidateQueries({ queryKey: userQueryKey });
      void client.invalidateQueries({ queryKey: notificationsQueryKey });
    };
    const offIncoming = subscribeRealtime('notification', (notification) => {
      // Browsers refuse to play before the first interaction with the page; the toast still shows.
      void new Audio(SOUND_URL).play().catch(() => undefined);
      showNotificationToast(notification);
      readAgain();
      // Files arrived through an upload request, or it was closed: its status, count and folder changed.
      if (notification.category === 'file-request') {
        void client.invalidateQueries({ queryKey: uploadRequestsKeys.owned });
        void client.invalidateQueries({ queryKey: filesKeys.listings });
      }
    });
    const offChanged = subscribeRealtime('notifications.changed', readAgain);
    return () => {
      offIncoming();
      offChanged();
    };
  }, [client, realtimeOn]);
}
