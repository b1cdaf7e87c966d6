import { useQuery } from '@tanstack/react-query';
import { CornerDownLeft, Search } from 'lucide-react';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import type { FileItem } from './files-api';
import type { SearchableSource } from './file-source';
import { pathTo, useFolderTree } from './folder-tree';
import { ItemVisual } from './item-visual';
import { displayFileName } from '../../lib/file-name';

const SEARCH_DEBOUNCE_MS = 200;

function useDebounced(value: string, delay: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * The spotlight's content (Ctrl/Cmd+K): names matching the query, arrow keys to move, Enter to open.
 * A folder opens in the source's file manager; a file opens in the preview inside its folder. Each
 * result says which folder it is in.
 */
export function FileSearch({
  source,
  label,
  onClose,
}: {
  source: SearchableSource;
  /** What the field says it searches. */
  label: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const results = useQuery({
    queryKey: source.search.key(query),
    queryFn: ({ signal }) => source.search.find(query, signal),
    enabled: query.length > 0,
    staleTime: 10_000,
  });
  const items = query.length > 0 ? (results.data ?? []) : [];
  // A new query starts at its first result (state adjusted during render, not in an effect).
  const [activeQuery, setActiveQuery] = useState(query);
  if (activeQuery !== query) {
    setActiveQuery(query);
    setActive(0);
  }

  // Where each result lives, read from the folder tree the file manager already keeps (one request).
  const tree = useFolderTree(source);
  const top = source.kind === 'owner' ? t('files.my_files') : t('files.search_top');
  const whereItLives = (item: FileItem) =>
    [
      top,
      ...pathTo(tree.data ?? [], item.attributes.parent_id).map((folder) => displayFileName(folder.name)),
    ].join(' / ');

  function open(item: FileItem) {
    onClose();
    if (item.type === 'folder') navigate(source.folderPath(item.id));
    else navigate(source.folderPath(item.attributes.parent_id), { state: { preview: item } });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (items.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => (index + 1) % items.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index - 1 + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      if (item) open(item);
    }
  }

  const activeId = items[active] ? `${listId}-${items[active].id}` : undefined;

  return (
    <div>
      <label className="flex items-center gap-3 border-b border-line px-4">
        {results.isFetching ? (
          <Spinner className="size-5 text-muted" />
        ) : (
          <Search className="size-5 text-muted" aria-hidden />
        )}
        <input
          autoFocus
          type="search"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-autocomplete="list"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={label}
          aria-label={label}
          className="h-14 flex-1 bg-transparent text-base outline-none placeholder:text-muted/70 [&::-webkit-search-cancel-button]:appearance-none"
        />
        <kbd className="rounded-md border border-line px-1.5 py-0.5 text-[11px] text-muted">Esc</kbd>
      </label>
      {query.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-muted">{t('files.search_hint')}</p>
      ) : results.isPending ? (
        <p className="px-5 py-8 text-center text-sm text-muted">{t('files.searching')}</p>
      ) : results.isError ? (
        <p role="alert" className="px-5 py-8 text-center text-sm text-danger">
          {t('files.search_failed')}
        </p>
      ) : items.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-muted">{t('files.no_results', { query })}</p>
      ) : (
        <ul
          id={listId}
          role="listbox"
          aria-label={t('files.search_results')}
          className="max-h-[55vh] overflow-y-auto p-2"
        >
          {items.map((item, index) => (
            <li
              key={item.id}
              id={`${listId}-${item.id}`}
              role="option"
              aria-selected={index === active}
              aria-labelledby={`${listId}-${item.id}-name`}
              aria-describedby={`${listId}-${item.id}-place`}
              onMouseMove={() => setActive(index)}
              onClick={() => open(item)}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-xl px-3 py-2',
                index === active && 'bg-surface-2',
              )}
            >
              <ItemVisual item={item} size="row" thumbnailFor={source.bytes?.thumbnailUrl} />
              <span className="min-w-0 flex-1">
                <span
                  id={`${listId}-${item.id}-name`}
                  className="block truncate text-sm font-medium text-ink"
                >
                  {displayFileName(item.attributes.name)}
                </span>
                <span id={`${listId}-${item.id}-place`} className="block truncate text-xs text-muted">
                  {t('files.search_location', { path: whereItLives(item) })}
                </span>
              </span>
              {index === active && <CornerDownLeft className="size-4 text-muted" aria-hidden />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
