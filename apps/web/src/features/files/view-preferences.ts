import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { SortDirection, SortField, SortOrder } from './files-api';
import { readLocal, writeLocal } from '../../lib/local-store';

/** List or grid and the sort order are remembered in this browser (section 4: default list, created_at desc). */
export type ViewMode = 'list' | 'grid';

const VIEW_KEY = 'atelier.files.view';
const SORT_KEY = 'atelier.files.sort';
const SORT_FIELDS: readonly SortField[] = ['created_at', 'name', 'filesize', 'updated_at'];
export const DEFAULT_ORDER: SortOrder = { sort: 'created_at', direction: 'desc' };

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function write(key: string, value: string) {
  writeLocal(key, value);
  listeners.forEach((listener) => listener());
}

function readView(): ViewMode {
  return readLocal(VIEW_KEY) === 'grid' ? 'grid' : 'list';
}

// Serialised so useSyncExternalStore compares a stable string, not a fresh object.
function readOrderText(): string {
  const [sort, direction] = (readLocal(SORT_KEY) ?? '').split(':');
  const valid = SORT_FIELDS.includes(sort as SortField) && (direction === 'asc' || direction === 'desc');
  return valid ? `${sort}:${direction}` : `${DEFAULT_ORDER.sort}:${DEFAULT_ORDER.direction}`;
}

export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  const mode = useSyncExternalStore(subscribe, readView, readView);
  return [mode, useCallback((next: ViewMode) => write(VIEW_KEY, next), [])];
}

function orderOf(text: string): SortOrder {
  const [sort, direction] = text.split(':') as [SortField, SortDirection];
  return { sort, direction };
}

/** The order this browser lists folders in, read outside React (the listing asked for before the app renders). */
export const readSortOrder = (): SortOrder => orderOf(readOrderText());

export function useSortOrder(): [SortOrder, (order: SortOrder) => void] {
  const text = useSyncExternalStore(subscribe, readOrderText, readOrderText);
  const order = useMemo(() => orderOf(text), [text]);
  return [order, useCallback((next: SortOrder) => write(SORT_KEY, `${next.sort}:${next.direction}`), [])];
}
