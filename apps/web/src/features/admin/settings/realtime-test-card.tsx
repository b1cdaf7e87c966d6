import { REALTIME_TEST_TIMEOUT_MS } from '@atelier/contracts/constants';
import { RadioTower } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useConfig } from '../../session/session-queries';
import { useWebsocketTest } from '../use-websocket-test';

/** The environment tab's end-to-end check of the realtime connection, with the driver in use. */
export function RealtimeTestCard() {
  const { t } = useTranslation();
  const driver = useConfig().broadcasting.driver;
  const realtimeOff = driver === 'null';
  const { run, testing } = useWebsocketTest();

  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <div className="flex items-start gap-4">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
          <RadioTower className="size-5" aria-hidden />
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <h2 className="text-lg font-semibold">{t('admin.realtime.title')}</h2>
          <p className="text-sm text-muted">{t('admin.realtime.explanation')}</p>
        </div>
      </div>

      <dl className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-surface-2 px-4 py-3 text-sm">
        <dt className="text-muted">{t('admin.realtime.driver')}</dt>
        <dd className="font-mono font-medium" data-testid="broadcasting-driver">
          {realtimeOff ? t('admin.realtime.driver_off') : driver}
        </dd>
      </dl>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">
          {realtimeOff
            ? t('admin.realtime.off_hint')
            : t('admin.realtime.test_hint', { seconds: REALTIME_TEST_TIMEOUT_MS / 1000 })}
        </p>
        <Button onClick={run} loading={testing} disabled={realtimeOff} className="sm:self-auto">
          {testing ? t('admin.realtime.testing') : t('admin.realtime.test')}
        </Button>
      </div>
    </Card>
  );
}
