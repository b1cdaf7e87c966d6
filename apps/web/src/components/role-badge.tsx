import type { Role } from '@atelier/contracts';
import { useTranslation } from 'react-i18next';
import { cn } from '../lib/cn';

/** The description's role colours (section 6): admin purple, user green. */
const ROLE_STYLE: Record<Role, string> = {
  admin: 'bg-purple-500/12 text-purple-700 dark:text-purple-300',
  user: 'bg-emerald-500/12 text-emerald-700 dark:text-emerald-300',
};

export function RoleBadge({ role, className }: { role: Role; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="role-badge"
      data-role={role}
      className={cn(
        'rounded-full px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap',
        ROLE_STYLE[role],
        className,
      )}
    >
      {t(`roles.${role}`)}
    </span>
  );
}
