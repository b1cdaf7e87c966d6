import type { TeamPermission } from '@atelier/contracts';
import { Eye, PencilLine, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Avatar, type AvatarPerson } from '../../components/avatar';
import { cn } from '../../lib/cn';
import type { Team } from './teams-api';

/** A member, an owner or an inviter as the avatar draws them, in the colour of their own pages. */
export function personOf(person: {
  id?: string;
  name: string;
  email?: string;
  avatar: AvatarPerson['avatar'];
  color: string;
}) {
  return { ...person, email: person.email ?? '' };
}

/** Everyone of a team, the owner first. */
export function peopleOf(team: Team) {
  return [personOf(team.owner), ...team.members.map(personOf)];
}

/** The mark of a team folder in the owner's listings. */
export function TeamBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      role="img"
      aria-label={t('teams.badge_label')}
      title={t('teams.badge_label')}
      data-testid="team-badge"
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full bg-success-soft px-1.5 text-[11px] font-semibold text-success',
        className,
      )}
    >
      <Users className="size-3" aria-hidden />
      <span aria-hidden>{t('teams.badge')}</span>
    </span>
  );
}

/** Can edit / Can view, with its mark. */
export function PermissionChip({
  permission,
  className,
}: {
  permission: TeamPermission;
  className?: string;
}) {
  const { t } = useTranslation();
  const Icon = permission === 'can_edit' ? PencilLine : Eye;
  return (
    <span
      className={cn(
        'inline-flex h-6 shrink-0 items-center gap-1 rounded-full px-2 text-xs font-medium',
        permission === 'can_edit' ? 'bg-accent-soft text-accent' : 'bg-surface-2 text-muted',
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden />
      {t(`teams.permission.${permission}`)}
    </span>
  );
}

/** Overlapping avatars, at most `max`, then how many more. */
export function AvatarStack({
  people,
  max = 4,
  size = 28,
}: {
  people: ReturnType<typeof personOf>[];
  max?: number;
  size?: number;
}) {
  const shown = people.slice(0, max);
  const more = people.length - shown.length;
  return (
    <span className="flex items-center">
      {shown.map((person, index) => (
        <Avatar
          key={person.id ?? person.email}
          person={person}
          size={size}
          className={cn('ring-2 ring-surface', index > 0 && '-ml-2')}
        />
      ))}
      {more > 0 && (
        <span
          className="-ml-2 grid shrink-0 place-items-center rounded-full bg-surface-2 text-[11px] font-semibold text-muted ring-2 ring-surface"
          style={{ width: size, height: size }}
        >
          +{more}
        </span>
      )}
    </span>
  );
}
