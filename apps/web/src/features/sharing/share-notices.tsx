import { Clock, Link2Off, TimerOff, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FrameNotice } from '../../components/public-frame';
import { Button } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import type { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format-date';
import { useConfig } from '../session/session-queries';

// What a share's pages say about the link itself, without the app's router: the product page's own
// entry (product-main.tsx) shows them as the share pages' frame does.

/** Until when the link works, above what it shows, so a visitor knows to fetch the files in time. */
export function AvailableUntil({ iso }: { iso: string }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="mb-4 flex items-center gap-2 self-start rounded-full bg-surface-2 px-3 py-1 text-xs font-medium text-muted">
      <Clock className="size-3.5" aria-hidden />
      {t('sharing.available_until', { date: formatDateTime(iso, i18n.language) })}
    </p>
  );
}

/** The share's detail could not be read (no answer, or a server error): say so and offer another try. */
export function VisitFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <FrameNotice
      icon={TriangleAlert}
      tone="danger"
      title={t('sharing.visit_failed')}
      body={t('sharing.visit_failed_hint')}
      alert
    >
      <Button onClick={onRetry}>{t('sharing.retry')}</Button>
    </FrameNotice>
  );
}

/**
 * A link that stopped working (410): revoked by its owner or out of time, said plainly with when and
 * whom to ask for a new one, and nothing of the share shown.
 */
export function ShareEndedPage({ refusal }: { refusal: ApiError }) {
  const { t, i18n } = useTranslation();
  const appName = useConfig().app.name;
  const revoked = refusal.code === 'share_revoked';
  const ended = refusal.ended;
  const Icon = revoked ? Link2Off : TimerOff;
  return (
    <main className="grid min-h-dvh place-items-center px-6">
      <div className="flex max-w-md flex-col items-center gap-5 text-center">
        <Logo name={appName} className="mb-3" />
        <span className="grid size-16 place-items-center rounded-3xl bg-accent-soft text-accent shadow-soft">
          <Icon className="size-8" aria-hidden />
        </span>
        <h1 className="font-display text-2xl font-semibold">
          {t(revoked ? 'sharing.revoked_title' : 'sharing.expired_title')}
        </h1>
        <p className="text-sm leading-relaxed text-muted">
          {ended
            ? t(revoked ? 'sharing.revoked_body' : 'sharing.expired_since_body', {
                name: ended.owner.name,
                date: formatDateTime(ended.ended_at, i18n.language),
              })
            : t('sharing.expired_body')}
        </p>
        <Button asChild variant="secondary">
          <a href="/">{t('not_found.home')}</a>
        </Button>
      </div>
    </main>
  );
}
