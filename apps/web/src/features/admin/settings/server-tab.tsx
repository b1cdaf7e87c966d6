import type { ServerStatus } from '@atelier/contracts';
import {
  Activity,
  Boxes,
  Clapperboard,
  Cpu,
  Database,
  HardDrive,
  ListChecks,
  RefreshCw,
  TriangleAlert,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../../files/item-kind';
import { useServerStatus } from './settings-api';
import { QueryLoader } from './settings-parts';

type Health = 'ok' | 'warn' | 'down';

const DOT: Record<Health, string> = {
  ok: 'bg-success shadow-[0_0_0_4px] shadow-success/15',
  warn: 'bg-amber-500 shadow-[0_0_0_4px] shadow-amber-500/15',
  down: 'bg-danger shadow-[0_0_0_4px] shadow-danger/15',
};

/** A disk under a tenth free deserves a look before uploads start failing. */
const LOW_DISK = 0.1;

/** /admin/settings/server: this process, the services it uses, and what failed lately. */
export function ServerTab() {
  const { t, i18n } = useTranslation();
  const query = useServerStatus();
  return (
    <QueryLoader query={query}>
      {(status) => (
        <div className="flex flex-col gap-6">
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm text-muted">{t('admin_settings.server.lead')}</p>
            <Button
              variant="secondary"
              size="sm"
              loading={query.isFetching}
              onClick={() => void query.refetch()}
            >
              <RefreshCw className="size-4" aria-hidden />
              {t('admin_settings.server.refresh')}
            </Button>
          </div>
          <ul className="grid gap-4 sm:grid-cols-2">
            <StatusCard
              icon={<Cpu className="size-5" aria-hidden />}
              title={t('admin_settings.server.runtime')}
              health="ok"
              summary={`Node.js ${status.runtime.node}`}
              rows={[
                [t('admin_settings.server.platform'), status.runtime.platform],
                [t('admin_settings.server.uptime'), formatUptime(status.runtime.uptime_seconds, t)],
                [
                  t('admin_settings.server.memory'),
                  `${formatBytes(status.runtime.memory.rss, i18n.language)}`,
                ],
                [
                  t('admin_settings.server.heap'),
                  `${formatBytes(status.runtime.memory.heap_used, i18n.language)} / ${formatBytes(status.runtime.memory.heap_total, i18n.language)}`,
                ],
              ]}
            />
            <DiskCard status={status} />
            <StatusCard
              icon={<Database className="size-5" aria-hidden />}
              title={t('admin_settings.server.database')}
              health="ok"
              summary={status.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}
              rows={[[t('admin_settings.server.version'), status.database.version]]}
            />
            <StatusCard
              icon={<ListChecks className="size-5" aria-hidden />}
              title={t('admin_settings.server.queue')}
              health={status.queue.failed > 0 ? 'warn' : 'ok'}
              summary={
                status.queue.driver === 'bullmq'
                  ? 'BullMQ (Redis)'
                  : t('admin_settings.server.queue_database')
              }
              rows={[
                [t('admin_settings.server.waiting'), String(status.queue.waiting)],
                [t('admin_settings.server.failed'), String(status.queue.failed)],
              ]}
            />
            <StatusCard
              icon={<Clapperboard className="size-5" aria-hidden />}
              title="ffmpeg"
              health={status.ffmpeg.ok ? 'ok' : 'down'}
              summary={
                status.ffmpeg.ok ? t('admin_settings.server.available') : t('admin_settings.server.missing')
              }
              detail={status.ffmpeg.detail}
            />
            <StatusCard
              icon={<Boxes className="size-5" aria-hidden />}
              title="Chromium"
              health={status.chromium.ok ? 'ok' : 'down'}
              summary={
                status.chromium.ok ? t('admin_settings.server.available') : t('admin_settings.server.missing')
              }
              detail={status.chromium.detail}
            />
          </ul>
          <ErrorLog errors={status.errors} />
        </div>
      )}
    </QueryLoader>
  );
}

function DiskCard({ status }: { status: ServerStatus }) {
  const { t, i18n } = useTranslation();
  const disk = status.disk;
  if (!disk)
    return (
      <StatusCard
        icon={<HardDrive className="size-5" aria-hidden />}
        title={t('admin_settings.server.disk')}
        health="ok"
        summary={t('admin_settings.server.disk_s3')}
      />
    );
  const used = disk.total - disk.free;
  const share = disk.total > 0 ? used / disk.total : 0;
  return (
    <StatusCard
      icon={<HardDrive className="size-5" aria-hidden />}
      title={t('admin_settings.server.disk')}
      health={disk.free / Math.max(disk.total, 1) < LOW_DISK ? 'warn' : 'ok'}
      summary={t('admin_settings.server.disk_free', {
        free: formatBytes(disk.free, i18n.language),
        total: formatBytes(disk.total, i18n.language),
      })}
      rows={[
        [t('admin_settings.server.disk_used'), formatBytes(used, i18n.language)],
        [t('admin_settings.server.disk_path'), disk.path],
      ]}
    >
      <div
        className="h-2 overflow-hidden rounded-full bg-surface-2"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        aria-label={t('admin_settings.server.disk')}
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${Math.max(share * 100, 2)}%` }} />
      </div>
    </StatusCard>
  );
}

function StatusCard({
  icon,
  title,
  health,
  summary,
  rows,
  detail,
  children,
}: {
  icon: ReactNode;
  title: string;
  health: Health;
  summary: string;
  rows?: Array<[string, string]>;
  detail?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li>
      <Card className="flex h-full flex-col gap-4 p-5">
        <div className="flex items-start gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
            {icon}
          </span>
          <div className="flex min-w-0 flex-1 flex-col">
            <h2 className="font-semibold">{title}</h2>
            <p className="truncate text-sm text-muted">{summary}</p>
          </div>
          <span className="mt-1.5 flex items-center gap-2 text-xs font-medium text-muted">
            <span className={cn('size-2.5 rounded-full', DOT[health])} aria-hidden />
            <span className="sr-only sm:not-sr-only">{t(`admin_settings.server.health_${health}`)}</span>
          </span>
        </div>
        {children}
        {rows && (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted">{label}</dt>
                <dd className="truncate text-right font-mono text-xs leading-5">{value}</dd>
              </div>
            ))}
          </dl>
        )}
        {detail && (
          <p className="rounded-lg bg-surface-2 px-3 py-2 font-mono text-xs break-words text-muted">
            {detail}
          </p>
        )}
      </Card>
    </li>
  );
}

function ErrorLog({ errors }: { errors: ServerStatus['errors'] }) {
  const { t, i18n } = useTranslation();
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6">
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-surface-2 text-accent">
          {errors.length ? (
            <TriangleAlert className="size-5" aria-hidden />
          ) : (
            <Activity className="size-5" aria-hidden />
          )}
        </span>
        <div className="flex flex-col">
          <h2 className="font-semibold">{t('admin_settings.server.errors_title')}</h2>
          <p className="text-sm text-muted">{t('admin_settings.server.errors_lead')}</p>
        </div>
      </div>
      {errors.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line px-4 py-6 text-center text-sm text-muted">
          {t('admin_settings.server.errors_none')}
        </p>
      ) : (
        <ol
          className="flex flex-col divide-y divide-line rounded-xl border border-line"
          data-testid="error-log"
        >
          {errors.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="flex flex-col gap-1 px-4 py-3 text-sm">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="rounded-md bg-danger/10 px-1.5 py-0.5 font-mono text-xs font-semibold text-danger">
                  {entry.status}
                </span>
                <span className="min-w-0 font-mono text-xs break-all">
                  {entry.method} {entry.path}
                </span>
                <time className="ml-auto text-xs text-muted" dateTime={entry.at}>
                  {time.format(new Date(entry.at))}
                </time>
              </div>
              <p className="font-mono text-xs break-words text-muted">{entry.error}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function formatUptime(seconds: number, t: (key: string, vars?: Record<string, number>) => string): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return t('admin_settings.server.uptime_days', { days, hours });
  if (hours > 0) return t('admin_settings.server.uptime_hours', { hours, minutes });
  return t('admin_settings.server.uptime_minutes', { minutes });
}
