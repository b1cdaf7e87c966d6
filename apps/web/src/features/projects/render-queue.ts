import type { RenderQueue, RenderQueueEntry } from '@atelier/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { api } from '../../lib/api-client';
import { subscribeRealtime } from '../../lib/realtime';

export type { RenderQueueEntry };

/** Under the studio's key, so a finished render's refetch of studio lists takes it along. */
export const renderQueueKey = ['projects', 'render-queue'] as const;

/**
 * The signed-in user's projects with renders under way, where each stands in the queue, kept live:
 * a render that starts, waits again or ends moves the places and the estimates, so they are asked
 * again; progress alone does not.
 */
export function useRenderQueue(): RenderQueueEntry[] {
  const client = useQueryClient();
  useEffect(
    () =>
      subscribeRealtime('project.asset', (event) => {
        if (event.status !== 'rendering' || event.progress === 0)
          void client.invalidateQueries({ queryKey: renderQueueKey });
      }),
    [client],
  );
  return (
    useQuery({
      queryKey: renderQueueKey,
      queryFn: () => api.get<RenderQueue>('/api/projects/render-queue').then((body) => body.data),
    }).data ?? []
  );
}

/** "Rendering 2 of 3 · about 1 minute", or "Queued, 3 renders ahead · about 4 minutes". */
export function renderQueueLine(entry: RenderQueueEntry, t: TFunction): string {
  const where =
    entry.rendering > 0
      ? t('projects.queue.rendering', { current: Math.min(entry.total, entry.ended + 1), total: entry.total })
      : entry.position === 1
        ? t('projects.queue.next')
        : t('projects.queue.waiting', { count: (entry.position ?? 1) - 1 });
  if (entry.estimate_seconds === null) return where;
  const estimate =
    entry.estimate_seconds < 60
      ? t('projects.queue.estimate_soon')
      : t('projects.queue.estimate', { count: Math.round(entry.estimate_seconds / 60) });
  return `${where} · ${estimate}`;
}
