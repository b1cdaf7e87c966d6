import type { Paginate } from '@atelier/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/ui/empty-state';
import { AdminHeader, LoadState, Pager } from '../admin/users/admin-header';
import { BillingAdminTabs } from './billing-parts';
import { SearchBox } from './search-box';

const TOOLBAR_LAYOUT = {
  sm: 'flex flex-col gap-3 sm:flex-row sm:items-center',
  lg: 'flex flex-col gap-3 lg:flex-row lg:items-center',
} as const;

/**
 * The scaffolding of a billing admin list (/admin/invoices, /admin/subscriptions): header, tabs,
 * search box and filters, then the loading state, the empty state (a "nothing found" one when a
 * search or filter is set) or the page's table, and the pager.
 */
export function AdminListPage<Item>({
  title,
  lead,
  searchPlaceholder,
  typed,
  onTyped,
  toolbar = 'sm',
  filters,
  list,
  filtered,
  onPage,
  emptyIcon,
  emptyTitle,
  emptyBody,
  children,
}: {
  title: string;
  lead: string;
  searchPlaceholder: string;
  typed: string;
  onTyped: (value: string) => void;
  /** The breakpoint from which search box and filters stand in one row. */
  toolbar?: keyof typeof TOOLBAR_LAYOUT;
  filters: ReactNode;
  list: UseQueryResult<{ data: Item[]; meta: { paginate: Paginate } }>;
  filtered: boolean;
  onPage: (page: number) => void;
  emptyIcon: LucideIcon;
  /** Translation keys of the empty state when nothing is searched or filtered. */
  emptyTitle: string;
  emptyBody: string;
  children: (items: Item[], dimmed: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={title} lead={lead} />
      <BillingAdminTabs />
      <div className={TOOLBAR_LAYOUT[toolbar]}>
        <SearchBox
          label={t('billing_ui.search')}
          placeholder={searchPlaceholder}
          value={typed}
          onChange={onTyped}
        />
        {filters}
      </div>
      {!list.data ? (
        <LoadState failed={list.isError} />
      ) : list.data.data.length === 0 ? (
        <EmptyState
          icon={emptyIcon}
          title={t(filtered ? 'billing_ui.none_found_title' : emptyTitle)}
          body={t(filtered ? 'billing_ui.none_found_body' : emptyBody)}
        />
      ) : (
        children(list.data.data, list.isPlaceholderData)
      )}
      {list.data && <Pager paginate={list.data.meta.paginate} onPage={onPage} />}
    </section>
  );
}
