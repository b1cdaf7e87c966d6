import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * The bar over an admin's pages while the instance is in maintenance: everyone else sees only the
 * maintenance page, and the admin should not forget to open the doors again.
 */
export function MaintenanceBar() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 bg-ink px-4 py-2.5 text-sm text-paper sm:px-8"
    >
      <Construction className="size-4 shrink-0" aria-hidden />
      <span className="font-semibold">{t('maintenance.admin_bar')}</span>
      <span className="opacity-80">{t('maintenance.admin_bar_hint')}</span>
      <Link to="/admin/settings/others" className="ml-auto font-semibold underline underline-offset-2">
        {t('maintenance.admin_bar_link')}
      </Link>
    </div>
  );
}
