import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, SearchX, Search } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { cn } from '../../../lib/cn';
import { LoadState } from '../users/admin-header';
import { fetchStrings, languageKeys, type Language, type TranslationStatus } from './languages-api';
import { StringRow, statusLabel } from './string-row';

const PER_PAGE = 30;
const FILTERS: Array<TranslationStatus | 'all'> = ['all', 'default', 'overridden', 'outdated'];

/** A language's ~1,300 strings: searched and filtered in the browser, shown a page at a time. */
export function StringEditor({ language }: { language: Language }) {
  const { t, i18n } = useTranslation();
  const strings = useQuery({
    queryKey: languageKeys.strings(language.locale),
    queryFn: () => fetchStrings(language.locale),
  });
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<TranslationStatus | 'all'>('all');
  const [page, setPage] = useState(1);
  const needle = useDeferredValue(search.trim().toLocaleLowerCase());
  // The statuses as they stood when the filter or the search last changed: a row saved since (a
  // default one is then translated) stays in the list under the admin's typing, not unmounted.
  const [listedStatus, setListedStatus] = useState<ReadonlyMap<string, TranslationStatus>>(new Map());
  const relist = () => {
    setListedStatus(new Map((strings.data ?? []).map((entry) => [entry.key, entry.status])));
    setPage(1);
  };

  const counts = useMemo(() => {
    const byStatus: Record<TranslationStatus | 'all', number> = {
      all: 0,
      default: 0,
      overridden: 0,
      outdated: 0,
    };
    for (const entry of strings.data ?? []) {
      byStatus.all += 1;
      byStatus[entry.status] += 1;
    }
    return byStatus;
  }, [strings.data]);

  const matching = useMemo(
    () =>
      (strings.data ?? []).filter(
        (entry) =>
          (filter === 'all' || (listedStatus.get(entry.key) ?? entry.status) === filter) &&
          (needle === '' ||
            [entry.key, entry.default, entry.value].some((text) =>
              text.toLocaleLowerCase().includes(needle),
            )),
      ),
    [strings.data, filter, needle, listedStatus],
  );
  const pages = Math.max(1, Math.ceil(matching.length / PER_PAGE));
  const current = Math.min(page, pages);
  const shown = matching.slice((current - 1) * PER_PAGE, current * PER_PAGE);
  const label = (status: TranslationStatus | 'all') =>
    status === 'all' ? t('admin_language.filter_all') : statusLabel(t, language.locale, status);

  if (strings.isPending || strings.isError) return <LoadState failed={strings.isError} />;

  return (
    <Card className="flex min-w-0 flex-col">
      <div className="flex flex-col gap-4 border-b border-line p-4 sm:p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="font-display text-xl font-semibold">
            {t('admin_language.strings_of', { name: language.name })}
          </h2>
          <p className="text-sm text-muted tabular-nums">
            {t('admin_language.count', { count: matching.length })}
          </p>
        </div>
        <label className="relative block">
          <span className="sr-only">{t('admin_language.search')}</span>
          <Search
            className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <input
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              relist();
            }}
            placeholder={t('admin_language.search')}
            className="h-11 w-full rounded-xl border border-line bg-surface pr-3.5 pl-10 text-sm text-ink shadow-soft focus:border-accent focus:ring-3 focus:ring-accent/15 focus:outline-none"
          />
        </label>
        <div
          className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1"
          role="group"
          aria-label={t('admin_language.filter_all')}
        >
          {FILTERS.map((status) => (
            <button
              key={status}
              type="button"
              aria-pressed={filter === status}
              onClick={() => {
                setFilter(status);
                relist();
              }}
              className={cn(
                'inline-flex h-8 shrink-0 cursor-pointer items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors',
                filter === status
                  ? 'border-accent bg-accent text-on-accent'
                  : 'border-line bg-surface text-ink hover:bg-surface-2',
              )}
            >
              {label(status)}
              <span className={cn('text-xs tabular-nums', filter === status ? 'opacity-80' : 'text-muted')}>
                {counts[status].toLocaleString(i18n.language)}
              </span>
            </button>
          ))}
        </div>
      </div>

      {shown.length === 0 ? (
        <div className="p-4 sm:p-5">
          <EmptyState
            icon={SearchX}
            title={t('admin_language.no_match_title')}
            body={t('admin_language.no_match')}
          />
        </div>
      ) : (
        <ul className="divide-y divide-line">
          {shown.map((entry) => (
            <StringRow key={`${language.locale}:${entry.key}`} locale={language.locale} entry={entry} />
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav className="flex items-center justify-between gap-2 border-t border-line p-3 sm:px-5">
          <Button size="sm" variant="secondary" disabled={current === 1} onClick={() => setPage(current - 1)}>
            <ChevronLeft className="size-4" aria-hidden />
            <span className="max-sm:sr-only">{t('admin_language.previous')}</span>
          </Button>
          <span className="text-sm text-muted tabular-nums">
            {t('admin_language.page_of', { page: current, pages })}
          </span>
          <Button
            size="sm"
            variant="secondary"
            disabled={current === pages}
            onClick={() => setPage(current + 1)}
          >
            <span className="max-sm:sr-only">{t('admin_language.next')}</span>
            <ChevronRight className="size-4" aria-hidden />
          </Button>
        </nav>
      )}
    </Card>
  );
}
