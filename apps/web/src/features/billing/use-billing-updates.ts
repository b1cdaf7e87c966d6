import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeRealtime } from '../../lib/realtime';
import { useConfig } from '../session/session-queries';
import { billingKeys } from './billing-api';

const BILLING_CATEGORIES = new Set([
  'subscription-created',
  'billing-alert',
  'insufficient-balance',
  'payment-alert',
]);

/**
 * A provider's webhook was applied (a subscription made or ended, a top-up, a failed charge): the
 * server tells the account (`user.updated`) and may send a billing notification; the billing
 * screens fetch again at once, so a person back from the provider's page sees the plan appear.
 */
export function useBillingUpdates() {
  const client = useQueryClient();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    const refresh = () => void client.invalidateQueries({ queryKey: billingKeys.all });
    const offUser = subscribeRealtime('user.updated', refresh);
    const offNotification = subscribeRealtime('notification', (notification) => {
      if (BILLING_CATEGORIES.has(notification.category)) refresh();
    });
    return () => {
      offUser();
      offNotification();
    };
  }, [client, realtimeOn]);
}
