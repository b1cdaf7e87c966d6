import type { ProjectAssetStatus } from '@atelier/contracts';
import { AlertTriangle, CheckCircle2, Clock3, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';

const STATUS_LOOK: Record<ProjectAssetStatus, { icon: typeof Clock3; className: string }> = {
  queued: { icon: Clock3, className: 'bg-surface-2 text-muted' },
  rendering: { icon: Loader2, className: 'bg-accent-soft text-accent' },
  done: { icon: CheckCircle2, className: 'bg-success-soft text-success' },
  failed: { icon: AlertTriangle, className: 'bg-danger-soft text-danger' },
};

/** A render's state as a small pill; a running render also shows its whole percent. */
export function RenderStatusBadge({ status, progress }: { status: ProjectAssetStatus; progress?: number }) {
  const { t } = useTranslation();
  const { icon: Icon, className } = STATUS_LOOK[status];
  return (
    <span
      className={cn(
        'inline-flex h-6 items-center gap-1.5 rounded-full px-2.5 text-xs font-medium whitespace-nowrap',
        className,
      )}
    >
      <Icon className={cn('size-3.5', status === 'rendering' && 'animate-spin')} aria-hidden />
      {t(`projects.status.${status}`)}
      {status === 'rendering' && progress !== undefined && <span className="tabular-nums">{progress}%</span>}
    </span>
  );
}

/** A thin bar for a running render, updated as realtime events arrive. */
export function RenderProgressBar({ progress, label }: { progress: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      className="h-1.5 w-full overflow-hidden rounded-full bg-surface-2"
    >
      <div
        className="h-full rounded-full bg-accent transition-[width] duration-300"
        style={{ width: `${Math.max(3, progress)}%` }}
      />
    </div>
  );
}

/** The page header of one project: the area, its name and the tabs of its three screens. */
export function ProjectHeader({
  projectId,
  name,
  description,
  actions,
}: {
  projectId: string;
  name: ReactNode;
  description?: string | null;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const tabs = [
    { to: `/projects/files/${projectId}`, label: t('projects.tab.inputs') },
    { to: `/projects/files/customize/${projectId}`, label: t('projects.tab.customize') },
    { to: `/projects/files/output/${projectId}`, label: t('projects.tab.output') },
  ];
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <NavLink
            to="/projects"
            className="text-xs font-semibold tracking-[0.14em] text-accent uppercase hover:underline"
          >
            {t('projects.area')}
          </NavLink>
          <h1 className="truncate font-display text-3xl font-semibold tracking-tight sm:text-4xl">{name}</h1>
          {description && <p className="max-w-2xl text-sm text-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      <nav
        aria-label={t('projects.tabs')}
        className="-mx-1 flex gap-1 overflow-x-auto border-b border-line px-1"
      >
        {tabs.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors',
                isActive ? 'border-accent text-ink' : 'border-transparent text-muted hover:text-ink',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}

/** A quiet panel for an empty list, with what to do next. */
export function EmptyState({
  icon,
  title,
  body,
  action,
}: {
  icon: ReactNode;
  title: string;
  body: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line px-6 py-14 text-center">
      <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">{icon}</span>
      <h2 className="font-display text-lg font-semibold">{title}</h2>
      <p className="max-w-md text-sm leading-relaxed text-muted">{body}</p>
      {action}
    </div>
  );
}

/** What could not be loaded (a 5xx, no network): the generic failure, and a way to ask again. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<AlertTriangle className="size-6" aria-hidden />}
      title={t('popup_error.title')}
      body={t('popup_error.message')}
      action={
        <Button variant="secondary" onClick={onRetry}>
          {t('sharing.retry')}
        </Button>
      }
    />
  );
}
