import { REALTIME_TEST_SEND_DELAY_MS, REALTIME_TEST_TIMEOUT_MS } from '@atelier/contracts/constants';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { api } from '../../lib/api-client';
import { subscribeRealtime } from '../../lib/realtime';

/**
 * The admin's realtime check: listen for the test event first, ask the server to send it after a short
 * delay (so the socket has time to join its room), and call it failed when nothing arrives in time.
 */
export function useWebsocketTest() {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);

  const finish = useCallback(
    (established: boolean) => {
      stopRef.current?.();
      stopRef.current = null;
      setTesting(false);
      if (established) pushToast('success', t('admin.realtime.test_success'));
      else pushToast('danger', t('admin.realtime.test_failure'));
    },
    [t],
  );

  const run = useCallback(() => {
    if (stopRef.current) return;
    setTesting(true);
    const unsubscribe = subscribeRealtime('TestWebsocketConnection', () => finish(true));
    const sendTimer = setTimeout(() => {
      // A refused request is a failed test too; the timeout below would say so later, this says it now.
      api.post('/api/admin/test-websockets').catch(() => finish(false));
    }, REALTIME_TEST_SEND_DELAY_MS);
    const failTimer = setTimeout(() => finish(false), REALTIME_TEST_TIMEOUT_MS);
    stopRef.current = () => {
      clearTimeout(sendTimer);
      clearTimeout(failTimer);
      unsubscribe();
    };
  }, [finish]);

  // Leaving the page ends the test quietly: no listener, no timer, no late toast.
  useEffect(
    () => () => {
      stopRef.current?.();
      stopRef.current = null;
    },
    [],
  );

  return { run, testing };
}
