import type { InvitationOutcome } from '@atelier/contracts';
import { CircleCheck, CircleX, TimerOff, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { namedRoutePath } from './notification-routes';

const OUTCOME_ICONS: Record<InvitationOutcome, LucideIcon> = {
  accepted: CircleCheck,
  rejected: CircleX,
  expired: TimerOff,
};

/** How an invitation's notification reads once it was answered or lapsed: an accepted one opens its folder. */
export function InvitationOutcomeLine({
  outcome,
  folderId,
  onNavigate,
}: {
  outcome: InvitationOutcome;
  folderId: string | undefined;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const Icon = OUTCOME_ICONS[outcome];
  const folderPath = outcome === 'accepted' && folderId ? namedRoutePath('SharedWithMe', folderId) : null;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
      <span
        data-testid="invitation-outcome"
        className={cn(
          'inline-flex items-center gap-1.5 text-xs font-medium',
          outcome === 'accepted' ? 'text-success' : 'text-muted',
        )}
      >
        <Icon className="size-4" aria-hidden />
        {t(`notifications.invitation.${outcome}`)}
      </span>
      {folderPath && (
        <Button asChild size="sm" variant="secondary">
          <Link to={folderPath} onClick={onNavigate}>
            {t('notifications.open_folder')}
          </Link>
        </Button>
      )}
    </div>
  );
}
