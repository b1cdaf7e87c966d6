import {
  CreditCard,
  FileText,
  Landmark,
  Languages,
  LayoutDashboard,
  ReceiptText,
  Repeat,
  Settings,
  UserCog,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SectionFrame, SectionNav, type SectionNavItem } from '../../components/sidebar/section-nav';

/** The admin area's sections; the sidebar has one entry (Admin Settings) for all of them. */
export const ADMIN_SECTIONS: readonly SectionNavItem[] = [
  {
    id: 'dashboard',
    to: '/admin/dashboard',
    labelKey: 'admin_nav.dashboard',
    icon: LayoutDashboard,
    also: ['/admin/audit'],
  },
  { id: 'users', to: '/admin/users', labelKey: 'admin_nav.users', icon: UserCog, also: ['/admin/user'] },
  { id: 'plans', to: '/admin/plans', labelKey: 'admin_nav.plans', icon: Landmark, also: ['/admin/plan'] },
  { id: 'subscriptions', to: '/admin/subscriptions', labelKey: 'admin_nav.subscriptions', icon: Repeat },
  { id: 'invoices', to: '/admin/invoices', labelKey: 'admin_nav.invoices', icon: ReceiptText },
  {
    id: 'payments',
    to: '/admin/payments/billings',
    labelKey: 'admin_nav.payments',
    icon: CreditCard,
    also: ['/admin/payments'],
  },
  { id: 'pages', to: '/admin/pages', labelKey: 'admin_nav.pages', icon: FileText },
  { id: 'settings', to: '/admin/settings', labelKey: 'admin_nav.settings', icon: Settings },
  { id: 'languages', to: '/admin/language', labelKey: 'admin_nav.languages', icon: Languages },
];

/** The frame of every /admin screen, with the admin area's own navigation. */
export function AdminLayout() {
  const { t } = useTranslation();
  return (
    <SectionFrame
      nav={<SectionNav label={t('admin_nav.label')} title={t('admin.area')} items={ADMIN_SECTIONS} />}
    >
      <Outlet />
    </SectionFrame>
  );
}
