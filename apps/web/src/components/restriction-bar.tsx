import type { Restrictions } from '@atelier/contracts';
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** True when the account is held back in any way the bar should explain. */
export function isRestricted(restrictions: Restrictions) {
  return (
    restrictions.reason !== null ||
    !restrictions.canUpload ||
    !restrictions.canDownload ||
    !restrictions.canCreateFolder
  );
}

/** The red bar over the signed-in area: the warning, the reason, and the way out (Billing). */
export function RestrictionBar({ restrictions }: { restrictions: Restrictions }) {
  const { t } = useTranslation();
  if (!isRestricted(restrictions)) return null;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 bg-danger px-4 py-2.5 text-sm text-on-danger sm:px-8"
    >
      <ShieldAlert className="size-4 shrink-0" aria-hidden />
      <span className="font-semibold">{t('restriction.warning')}</span>
      {restrictions.reason && <span className="opacity-90">{restrictions.reason}</span>}
      <Link to="/user/settings/billing" className="ml-auto font-semibold underline underline-offset-2">
        {t('restriction.billing_link')}
      </Link>
    </div>
  );
}
