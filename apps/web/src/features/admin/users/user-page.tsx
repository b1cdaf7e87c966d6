import { useQuery } from '@tanstack/react-query';
import {
  ChevronLeft,
  CreditCard,
  HardDrive,
  KeyRound,
  Trash2,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LinkTabs } from '../../../components/ui/link-tabs';
import { Link, useLocation, useParams } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { RoleBadge } from '../../../components/role-badge';
import { Card } from '../../../components/ui/card';
import { AdminHeader, LoadState } from './admin-header';
import { adminKeys, fetchUser } from './admin-users-api';
import { DeleteTab, DetailsTab, PasswordTab, StorageTab, SubscriptionTab, type TabProps } from './user-tabs';
import { formatDate } from '../../../lib/format-date';

const TABS: { id: string; icon: LucideIcon; Component: (props: TabProps) => React.ReactNode }[] = [
  { id: 'details', icon: UserRound, Component: DetailsTab },
  { id: 'storage', icon: HardDrive, Component: StorageTab },
  { id: 'subscription', icon: CreditCard, Component: SubscriptionTab },
  { id: 'password', icon: KeyRound, Component: PasswordTab },
  { id: 'delete', icon: Trash2, Component: DeleteTab },
];

/** /admin/user/{id}/{tab}: one account, in the description's five tabs. */
export function AdminUserPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const tabId = useLocation().pathname.split('/').at(-1);
  const tab = TABS.find((entry) => entry.id === tabId) ?? TABS[0]!;
  const user = useQuery({ queryKey: adminKeys.user(id), queryFn: () => fetchUser(id) });

  return (
    <section className="flex flex-col gap-6">
      <Link
        to="/admin/users"
        className="flex w-fit items-center gap-1 text-sm font-medium text-muted hover:text-ink"
      >
        <ChevronLeft className="size-4" aria-hidden />
        {t('admin_users.back_to_users')}
      </Link>
      {!user.data ? (
        <>
          <AdminHeader title={t(`pages.admin_user_${tab.id}`)} />
          <LoadState failed={user.isError} />
        </>
      ) : (
        <>
          <header className="flex flex-wrap items-center gap-4">
            <Avatar person={user.data.data.attributes} size={64} className="shadow-soft" />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="text-xs font-semibold tracking-[0.14em] text-accent uppercase">
                {t('admin.area')}
              </p>
              <h1
                className="truncate font-display text-3xl font-semibold tracking-tight sm:text-4xl"
                data-testid="user-name"
              >
                {user.data.data.attributes.name}
              </h1>
              <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                <span className="truncate">{user.data.data.attributes.email}</span>
                <RoleBadge role={user.data.data.attributes.role} />
                <span>
                  {t('admin_users.member_since', {
                    date: formatDate(user.data.data.attributes.created_at, i18n.language),
                  })}
                </span>
              </p>
            </div>
          </header>

          <LinkTabs
            label={t('admin_users.tabs')}
            tabs={TABS.map(({ id: tabName, icon }) => ({
              to: `/admin/user/${id}/${tabName}`,
              label: t(`admin_users.tab.${tabName}`),
              icon,
              danger: tabName === 'delete',
            }))}
          />

          <Card className="p-5 sm:p-6">
            <tab.Component user={user.data} />
          </Card>
        </>
      )}
    </section>
  );
}
