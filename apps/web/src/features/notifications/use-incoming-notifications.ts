import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { filesKeys } from '../files/files-api';
import { useConfig, userQueryKey } from '../session/session-queries';
import { uploadRequestsKeys } from '../upload-requests/upload-requests-api';
import { notificationsQueryKey } from './notification-queries';
import { showNotificationToast } from './notification-toasts';

const SOUND_URL = '/audio/blop.wav';

/** Each notification pushed to this user: a sound, a toast, and a fresh badge count. */
export function useIncomingNotifications() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    return subscribeRealtime('notification', (notification) => {
      // Browsers refuse to play before the first interaction with the page; the toast still shows.
      void new Audio(SOUND_URL).play().catch(() => undefined);
      showNotificationToast(notification);
      void client.invalidateQueries({ queryKey: userQueryKey });
      void client.invalidateQueries({ queryKey: notificationsQueryKey });
      // Files arrived through an upload request, or it was closed: its status, count and folder changed.
      if (notification.category === 'file-request') {
        void client.invalidateQueries({ queryKey: uploadRequestsKeys.owned });
        void client.invalidateQueries({ queryKey: filesKeys.listings });
      }
    });
  }, [client, realtimeOn]);
}
