import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { renderQueueLine, useRenderQueue } from './render-queue';

/**
 * A pulsing mark beside the studio's sidebar entry while the user's renders are under way; its
 * tooltip says where each project stands.
 */
export function RenderActivity() {
  const { t } = useTranslation();
  const queue = useRenderQueue();
  if (queue.length === 0) return null;
  const label = t('projects.queue.under_way', { count: queue.length });
  return (
    <span
      role="status"
      aria-label={label}
      title={[label, ...queue.map((entry) => `${entry.project_name}: ${renderQueueLine(entry, t)}`)].join(
        '\n',
      )}
      className="ml-auto flex items-center gap-1.5 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent tabular-nums"
    >
      <PulsingDot />
      {queue.length}
    </span>
  );
}

function PulsingDot({ className }: { className?: string }) {
  return (
    <span className={cn('relative flex size-2', className)} aria-hidden>
      <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent opacity-60" />
      <span className="relative inline-flex size-2 rounded-full bg-accent" />
    </span>
  );
}

/**
 * A dot on the phone's menu button, where the sidebar hides in the drawer: renders under way are
 * seen from every page without opening it (the drawer's mark says how many, and where they stand).
 */
export function RenderActivityDot() {
  const queue = useRenderQueue();
  return queue.length === 0 ? null : <PulsingDot className="absolute top-1.5 right-1.5" />;
}
