import type { AdminUserListItem, AdminUsersQuery } from '@atelier/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Search, UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { RoleBadge } from '../../../components/role-badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { SELECT_CHEVRON } from '../../../components/ui/field';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../../files/item-kind';
import { AdminHeader, LoadState, Pager } from './admin-header';
import { adminKeys, fetchUsers } from './admin-users-api';
import { formatDate } from '../../../lib/format-date';

const SORTS: AdminUsersQuery['sort'][] = ['created_at', 'name', 'email', 'role', 'used'];
const SEARCH_DELAY_MS = 300;
const PER_PAGE = 20;

const control =
  'h-10 rounded-xl border border-line bg-surface px-3 text-sm text-ink shadow-soft focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none';

/** The query the address holds, so a filtered page can be reloaded and shared. */
function useListQuery() {
  const [params, setParams] = useSearchParams();
  const sort = SORTS.find((value) => value === params.get('sort')) ?? 'created_at';
  const query = {
    search: params.get('search') ?? '',
    role: (['admin', 'user'] as const).find((value) => value === params.get('role')),
    sort,
    direction: params.get('direction') === 'asc' ? ('asc' as const) : ('desc' as const),
    page: Math.max(1, Number(params.get('page')) || 1),
    per_page: PER_PAGE,
  };
  const update = (changes: Partial<typeof query>) => {
    const next = { ...query, page: 1, ...changes };
    setParams(
      Object.fromEntries(
        Object.entries({ ...next, per_page: undefined }).flatMap(([key, value]) =>
          value === undefined || value === '' || (key === 'page' && value === 1)
            ? []
            : [[key, String(value)]],
        ),
      ),
      { replace: true },
    );
  };
  return { query, update };
}

/**
 * The search box over the address's search: what is typed goes to the address once typing pauses, and
 * a search the box did not send (the sidebar's Users link, Back) replaces what it shows, so the box
 * and the list always agree.
 */
function useSearchBox(addressSearch: string, send: (search: string) => void) {
  const [text, setText] = useState(addressSearch);
  const [sent, setSent] = useState(addressSearch);
  const [seen, setSeen] = useState(addressSearch);
  if (addressSearch !== seen) {
    setSeen(addressSearch);
    // The address catching up with a search sent earlier leaves alone what was typed since.
    if (addressSearch !== sent) {
      setSent(addressSearch);
      setText(addressSearch);
    }
  }
  useEffect(() => {
    if (text === addressSearch) return;
    const timer = setTimeout(() => {
      setSent(text);
      send(text);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });
  return [text, setText] as const;
}

/** /admin/users: every account, searchable, filtered by role, sorted and paged. */
export function UsersPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { query, update } = useListQuery();
  const [search, setSearch] = useSearchBox(query.search, (typed) => update({ search: typed }));
  const users = useQuery({
    queryKey: adminKeys.userList(query),
    queryFn: () => fetchUsers(query),
    placeholderData: keepPreviousData,
  });

  const paginate = users.data?.meta.paginate;
  const filtered = query.search !== '' || query.role !== undefined;

  return (
    <section className="flex flex-col gap-6">
      <AdminHeader title={t('pages.admin_users')} lead={t('admin_users.list_lead')}>
        <Button asChild>
          <Link to="/admin/user/create">
            <UserPlus className="size-4" aria-hidden />
            {t('admin_users.create')}
          </Link>
        </Button>
      </AdminHeader>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <label className="relative flex-1">
          <span className="sr-only">{t('admin_users.search')}</span>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={t('admin_users.search_placeholder')}
            className={cn(control, 'w-full pl-9')}
          />
        </label>
        <div className="flex gap-2">
          <label className="flex-1 sm:flex-none">
            <span className="sr-only">{t('admin_users.role_filter')}</span>
            <select
              value={query.role ?? ''}
              onChange={(event) => update({ role: (event.target.value || undefined) as typeof query.role })}
              className={cn(
                control,
                'w-full appearance-none bg-[length:16px] bg-[right_0.6rem_center] bg-no-repeat pr-9',
              )}
              style={{ backgroundImage: SELECT_CHEVRON }}
            >
              <option value="">{t('admin_users.role_all')}</option>
              <option value="admin">{t('admin_users.role_admins')}</option>
              <option value="user">{t('admin_users.role_users')}</option>
            </select>
          </label>
          <label className="flex-1 sm:flex-none">
            <span className="sr-only">{t('admin_users.sort')}</span>
            <select
              value={query.sort}
              onChange={(event) => update({ sort: event.target.value as AdminUsersQuery['sort'] })}
              className={cn(
                control,
                'w-full appearance-none bg-[length:16px] bg-[right_0.6rem_center] bg-no-repeat pr-9',
              )}
              style={{ backgroundImage: SELECT_CHEVRON }}
            >
              {SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`admin_users.sort_by.${sort}`)}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="secondary"
            size="icon"
            onClick={() => update({ direction: query.direction === 'asc' ? 'desc' : 'asc' })}
            aria-label={t(query.direction === 'asc' ? 'admin_users.ascending' : 'admin_users.descending')}
            title={t(query.direction === 'asc' ? 'admin_users.ascending' : 'admin_users.descending')}
          >
            {query.direction === 'asc' ? (
              <ArrowUpNarrowWide className="size-4" aria-hidden />
            ) : (
              <ArrowDownWideNarrow className="size-4" aria-hidden />
            )}
          </Button>
        </div>
      </div>

      {!users.data ? (
        <LoadState failed={users.isError} />
      ) : users.data.data.length === 0 ? (
        <EmptyState
          icon={Users}
          title={t(filtered ? 'admin_users.none_found_title' : 'admin_users.none_title')}
          body={t(filtered ? 'admin_users.none_found_body' : 'admin_users.none_body')}
        />
      ) : (
        <Card className={cn('overflow-hidden transition-opacity', users.isPlaceholderData && 'opacity-60')}>
          {/* Below md the rows are cards: the table and its body are plain blocks, so a row is as wide as the card. */}
          <table className="block w-full text-sm md:table" data-testid="users-table">
            <thead className="hidden border-b border-line bg-surface-2/60 text-left text-xs font-semibold tracking-wide text-muted uppercase md:table-header-group">
              <tr>
                <th className="px-5 py-3">{t('admin_users.column_user')}</th>
                <th className="px-3 py-3">{t('admin_users.column_role')}</th>
                <th className="px-3 py-3">{t('admin_users.column_storage')}</th>
                <th className="px-5 py-3 text-right">{t('admin_users.column_created')}</th>
              </tr>
            </thead>
            <tbody className="block divide-y divide-line md:table-row-group">
              {users.data.data.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  locale={i18n.language}
                  onOpen={() => void navigate(`/admin/user/${user.id}/details`)}
                />
              ))}
            </tbody>
          </table>
        </Card>
      )}

      {paginate && <Pager paginate={paginate} onPage={(page) => update({ page })} />}
    </section>
  );
}

function UserRow({ user, locale, onOpen }: { user: AdminUserListItem; locale: string; onOpen: () => void }) {
  const { t } = useTranslation();
  const { used, capacity } = user.meta.usages;
  const percent = capacity ? Math.min(100, (used / capacity) * 100) : 0;
  const created = formatDate(user.attributes.created_at, locale);

  return (
    <tr
      data-testid="user-row"
      className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 transition-colors hover:bg-surface-2 md:table-row md:px-0"
      onClick={onOpen}
    >
      <td className="min-w-0 flex-1 md:px-5 md:py-3">
        <div className="flex items-center gap-3">
          <Avatar person={user.attributes} size={36} />
          <div className="min-w-0">
            <Link
              to={`/admin/user/${user.id}/details`}
              onClick={(event) => event.stopPropagation()}
              className="block truncate font-semibold text-ink hover:underline"
            >
              {user.attributes.name}
            </Link>
            <p className="truncate text-xs text-muted">{user.attributes.email}</p>
          </div>
        </div>
      </td>
      <td className="md:px-3 md:py-3">
        <RoleBadge role={user.attributes.role} />
      </td>
      <td className="w-full md:w-56 md:px-3 md:py-3">
        <div className="flex flex-col gap-1">
          <span className="text-xs text-muted tabular-nums">
            {capacity === null
              ? t('admin_users.used_unlimited', { used: formatBytes(used, locale) })
              : t('admin_users.used_of', {
                  used: formatBytes(used, locale),
                  capacity: formatBytes(capacity, locale),
                })}
          </span>
          {capacity !== null && (
            <span className="h-1.5 w-full overflow-hidden rounded-full bg-surface-2">
              <span
                className={cn('block h-full rounded-full', percent >= 90 ? 'bg-danger' : 'bg-accent')}
                style={{ width: `${Math.max(percent, used > 0 ? 2 : 0)}%` }}
              />
            </span>
          )}
        </div>
      </td>
      <td className="hidden text-right text-xs whitespace-nowrap text-muted md:table-cell md:px-5 md:py-3">
        {created}
      </td>
    </tr>
  );
}
