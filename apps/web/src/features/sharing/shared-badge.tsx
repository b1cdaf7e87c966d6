import type { ItemShare } from '@atelier/contracts';
import type { TFunction } from 'i18next';
import { Clock, Eye, Link2, Lock, PencilLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';

/** "6 hours", "2 days": a link's lifetime as the expiry select offers it. */
export function expiryLabel(hours: number, t: TFunction): string {
  return hours >= 48 && hours % 24 === 0
    ? t('sharing.expiry_days', { count: hours / 24 })
    : t('sharing.expiry_hours', { count: hours });
}

/** One sentence for screen readers and tooltips: who may do what, protected or not, for how long. */
function describeShare(share: ItemShare, t: TFunction): string {
  return [
    share.permission === 'editor' ? t('sharing.state.editor') : t('sharing.state.visitor'),
    share.protected ? t('sharing.state.protected') : t('sharing.state.open'),
    share.expire_in === null
      ? t('sharing.state.no_expiry')
      : t('sharing.state.expires_after', { time: expiryLabel(share.expire_in, t) }),
  ].join(' · ');
}

/** The mark of a shared item in list and grid. */
export function SharedBadge({ share, className }: { share: ItemShare; className?: string }) {
  const { t } = useTranslation();
  const description = describeShare(share, t);
  return (
    <span
      role="img"
      aria-label={t('sharing.badge_label', { state: description })}
      title={description}
      data-testid="shared-badge"
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full bg-accent-soft px-1.5 text-[11px] font-semibold text-accent',
        className,
      )}
    >
      <Link2 className="size-3" aria-hidden />
      <span aria-hidden>{t('sharing.badge')}</span>
      {share.protected && <Lock className="size-3" aria-hidden />}
    </span>
  );
}

const chip = 'inline-flex h-6 shrink-0 items-center gap-1 rounded-full px-2 text-xs font-medium';

/** A link's state spelled out (My shared items): permission, password, lifetime; `compact` for phones. */
export function ShareState({
  share,
  compact = false,
  className,
}: {
  share: ItemShare;
  compact?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const Permission = share.permission === 'editor' ? PencilLine : Eye;
  return (
    <span className={cn('flex min-w-0 flex-wrap items-center gap-1.5 overflow-hidden', className)}>
      <span className="sr-only">{describeShare(share, t)}</span>
      <span className={cn(chip, 'bg-accent-soft text-accent')} aria-hidden>
        <Permission className="size-3.5" />
        {share.permission === 'editor' ? t('sharing.can_edit') : t('sharing.can_view')}
      </span>
      {share.protected && (
        <span className={cn(chip, 'bg-surface-2 text-ink')} aria-hidden>
          <Lock className="size-3.5" />
          {!compact && t('sharing.password')}
        </span>
      )}
      <span className={cn(chip, 'bg-surface-2 text-muted')} aria-hidden>
        <Clock className="size-3.5" />
        {share.expire_in === null ? t('sharing.never') : expiryLabel(share.expire_in, t)}
      </span>
    </span>
  );
}
