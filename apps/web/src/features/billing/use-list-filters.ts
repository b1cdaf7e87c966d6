import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

const SEARCH_DELAY_MS = 300;

/**
 * A list's filters in the address (a filtered page can be reloaded and shared), a page of 1 and
 * empty values left out; the search box follows after a short pause in typing.
 */
export function useListFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ''])) as Record<K, string>;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('search') ?? '';
  const update = (changes: Partial<Record<K | 'search', string>> & { page?: number }) => {
    const next: Record<string, string | number> = { ...filters, search, page: 1, ...changes };
    setParams(
      Object.fromEntries(
        Object.entries(next).flatMap(([key, value]) =>
          value === '' || (key === 'page' && value === 1) ? [] : [[key, String(value)]],
        ),
      ),
      { replace: true },
    );
  };
  const [typed, setTyped] = useState(search);
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(
      () => update({ search: typed } as Partial<Record<K | 'search', string>>),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  });
  return { filters, page, search, typed, setTyped, update };
}
