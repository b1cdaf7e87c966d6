import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Check, Star } from 'lucide-react';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';
import { afterNextPaint } from '../../lib/after-paint';
import { cn } from '../../lib/cn';
import { isFavourite, useFileActions } from './file-actions';
import type { FileItem } from './files-api';
import { startItemDrag, useDropTarget } from './item-drag';
import { formatBytes } from './item-kind';
import { ItemContextMenu, ItemMenuButton } from './item-menu';
import { ItemVisual } from './item-visual';
import { SharedBadge } from '../sharing/shared-badge';
import { TeamBadge } from '../teams/team-people';
import { selectOnly, selectRange, selectionStore, toggleSelected, useSelection } from './selection-store';
import { useUploadInto } from './upload-service';
import type { ViewMode } from './view-preferences';
import { displayFileName } from '../../lib/file-name';
import { formatDate } from '../../lib/format-date';

const ROW_HEIGHT = 64;
const CARD_MIN_WIDTH = 168;
const GRID_GAP = 16;
const CARD_TEXT_HEIGHT = 60;

const coarsePointer = () => typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches;

interface ListProps {
  items: FileItem[];
  mode: ViewMode;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  /** Restores from inside a trashed folder go home. */
  toHome: boolean;
}

/**
 * The listing, virtualised against the window scroll: only the rows in view (plus a few) exist in
 * the DOM, and the next page loads as the end comes near, so a 10,000-item folder stays smooth.
 */
export function ItemList({ items, mode, hasNextPage, isFetchingNextPage, fetchNextPage, toHome }: ListProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [scrollMargin, setScrollMargin] = useState(0);

  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // What sits above the list (selection bar, new rows in the header) moves it; keep the offset true.
  // Read once the next frame is painted, when the page is laid out anyway: React runs a render's
  // effects before the browser paints it, so a read in the effect itself forced a layout of the whole
  // page on every render of the list, the first included. The rows sit where they belong meanwhile
  // (their offset leaves the margin out); only which rows are in view waits for it. It follows every
  // render on purpose (what moves the list is not this component's state); an unchanged offset keeps
  // the state, so React renders nothing more.
  useEffect(() =>
    afterNextPaint(() => {
      const top = (containerRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setScrollMargin((current) => (Math.abs(top - current) > 0.5 ? top : current));
    }),
  );

  const columns =
    mode === 'grid' ? Math.max(2, Math.floor((width + GRID_GAP) / (CARD_MIN_WIDTH + GRID_GAP))) : 1;
  const cardWidth = columns > 0 ? (width - GRID_GAP * (columns - 1)) / columns : CARD_MIN_WIDTH;
  const rowHeight = mode === 'grid' ? Math.round(cardWidth * 0.75 + CARD_TEXT_HEIGHT + GRID_GAP) : ROW_HEIGHT;
  const dataRows = Math.ceil(items.length / columns);
  const rowCount = dataRows + (hasNextPage ? 1 : 0);

  // The first frame holds the rows in view only (before the list's offset is read, the virtualiser
  // counts from the top of the page, which takes in more than are in view); the rows around them, for
  // smooth scrolling, follow once it is painted.
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowHeight,
    overscan: !painted ? 0 : mode === 'grid' ? 3 : 10,
    scrollMargin,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= dataRows - 4) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastIndex, dataRows, fetchNextPage]);

  /** Arrow keys move the focus between items, scrolling the next one into view first. */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const steps: Record<string, number> = {
      ArrowDown: columns,
      ArrowUp: -columns,
      ...(mode === 'grid' ? { ArrowRight: 1, ArrowLeft: -1 } : {}),
    };
    const step = steps[event.key];
    const current = (event.target as HTMLElement).closest<HTMLElement>('[data-item-id]');
    if (!step || !current) return;
    const index = items.findIndex((item) => item.id === current.dataset.itemId);
    const target = index + step;
    const next = index < 0 ? undefined : items[target];
    if (!next) return;
    event.preventDefault();
    virtualizer.scrollToIndex(Math.floor(target / columns));
    requestAnimationFrame(() => {
      const elements = containerRef.current?.querySelectorAll<HTMLElement>('[data-item-id]') ?? [];
      [...elements].find((element) => element.dataset.itemId === next.id)?.focus();
    });
  }

  return (
    <div
      ref={containerRef}
      onKeyDown={onKeyDown}
      role="grid"
      aria-rowcount={items.length}
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualRows.map((row) => {
        const start = row.index * columns;
        const rowItems = items.slice(start, start + columns);
        return (
          <div
            key={row.key}
            className="absolute inset-x-0 top-0"
            style={{
              height: row.size,
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            }}
          >
            {row.index >= dataRows ? (
              <div className="flex h-full items-center justify-center text-muted">
                <Spinner className="size-5" />
              </div>
            ) : mode === 'grid' ? (
              <div
                className="grid"
                style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GRID_GAP }}
              >
                {rowItems.map((item) => (
                  <ItemCard
                    key={item.id}
                    item={item}
                    items={items}
                    toHome={toHome}
                    height={rowHeight - GRID_GAP}
                  />
                ))}
              </div>
            ) : (
              rowItems[0] && <ItemRow item={rowItems[0]} items={items} toHome={toHome} />
            )}
          </div>
        );
      })}
    </div>
  );
}

/** Click, keyboard, drag and drop behaviour shared by rows and cards. */
function useItemBehaviour(item: FileItem, items: readonly FileItem[]) {
  const actions = useFileActions();
  const uploads = useUploadInto();
  const selectMode = useSelection((state) => state.selectMode);
  const selected = useSelection((state) => state.clipboard.some((entry) => entry.id === item.id));
  const movable = actions.variant !== 'trash' && actions.source.writable;
  const drop = useDropTarget(
    item.type === 'folder' && movable
      ? {
          onItems: (refs) => void actions.moveTo(refs, item.id),
          onFiles: (files) => uploads.add(files, item.id),
        }
      : {},
  );

  return {
    selected,
    selectMode,
    dropOver: drop.over,
    props: {
      tabIndex: 0,
      'data-item-id': item.id,
      'aria-selected': selected,
      draggable: movable,
      onClick(event: MouseEvent) {
        if (selectMode || event.metaKey || event.ctrlKey) toggleSelected(item);
        else if (event.shiftKey) selectRange(item, items);
        else if (coarsePointer()) actions.open(item);
        else selectOnly(item);
      },
      onDoubleClick() {
        if (!selectMode) actions.open(item);
      },
      onKeyDown(event: KeyboardEvent) {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter') actions.open(item);
        if (event.key === ' ') {
          event.preventDefault();
          toggleSelected(item);
        }
      },
      onDragStart(event: DragEvent) {
        const { clipboard } = selectionStore.get();
        startItemDrag(event, clipboard.some((entry) => entry.id === item.id) ? clipboard : [item]);
      },
      ...drop.handlers,
    },
  };
}

function useItemMeta(item: FileItem) {
  const { t, i18n } = useTranslation();
  const { variant, source, extras, isTeamFolder } = useFileActions();
  // The trash lists when things were deleted; elsewhere, when they were added.
  const shown =
    variant === 'trash'
      ? (item.attributes.deleted_at ?? item.attributes.created_at)
      : item.attributes.created_at;
  const date = formatDate(shown, i18n.language);
  const size =
    item.type === 'folder'
      ? t('files.items_count', { count: item.attributes.items ?? 0 })
      : formatBytes(item.attributes.filesize ?? 0, i18n.language);
  // The owner's items show their link, in the row unless the screen's column spells it out (My shared items).
  const share = source.kind === 'owner' ? item.relationships.shared.data : null;
  // Where every folder is a team folder (the team folders' own screen), the mark would say nothing.
  const team = source.kind === 'owner' && !source.topIsList && isTeamFolder(item);
  const thumbnail = source.bytes?.thumbnailUrl ?? noThumbnail;
  return { date, size, share, team, column: extras.column, thumbnail };
}

// Where bytes cannot be read back (an upload request), files show their type's icon.
const noThumbnail = () => null;

function SelectMark({ selected }: { selected: boolean }) {
  return (
    <span
      aria-hidden
      className={cn(
        'grid size-5 shrink-0 place-items-center rounded-md border-2 transition-colors',
        selected ? 'border-accent bg-accent text-on-accent' : 'border-line bg-surface',
      )}
    >
      {selected && <Check className="size-3.5" strokeWidth={3} />}
    </span>
  );
}

function FavouriteButton({ item, className }: { item: FileItem; className?: string }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const favourite = isFavourite(item);
  if (actions.variant === 'trash' || actions.source.kind !== 'owner') return null;
  return (
    <button
      type="button"
      aria-pressed={favourite}
      aria-label={favourite ? t('files.remove_favourite') : t('files.add_favourite')}
      onClick={(event) => {
        event.stopPropagation();
        void actions.toggleFavourite(item);
      }}
      onDoubleClick={(event) => event.stopPropagation()}
      className={cn(
        'grid size-9 shrink-0 cursor-pointer place-items-center rounded-lg transition-opacity hover:bg-surface-2',
        favourite
          ? 'text-amber-500'
          : 'text-muted opacity-0 group-hover:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100',
        className,
      )}
    >
      <Star className={cn('size-4', favourite && 'fill-current')} aria-hidden />
    </button>
  );
}

/** The Element Timing name of a row's or card's file name: when it is painted (bench/pages.ts reads it). */
const FILE_NAME_TIMING = 'file-name';

const ItemRow = memo(function ItemRow({
  item,
  items,
  toHome,
}: {
  item: FileItem;
  items: readonly FileItem[];
  toHome: boolean;
}) {
  const { selected, selectMode, dropOver, props } = useItemBehaviour(item, items);
  const { date, size, share, team, column, thumbnail } = useItemMeta(item);
  return (
    <ItemContextMenu item={item} toHome={toHome}>
      <div
        role="row"
        data-testid="item-row"
        {...props}
        className={cn(
          'group flex h-[60px] cursor-default items-center gap-3 rounded-xl px-2 outline-none select-none sm:px-3',
          'hover:bg-surface-2 focus-visible:ring-2 focus-visible:ring-accent/60 data-[state=open]:bg-surface-2',
          selected && 'bg-accent-soft hover:bg-accent-soft',
          dropOver && 'bg-accent-soft ring-2 ring-accent',
        )}
      >
        {selectMode && <SelectMark selected={selected} />}
        <ItemVisual item={item} size="row" thumbnailFor={thumbnail} />
        <div role="gridcell" className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center gap-2">
            <p elementtiming={FILE_NAME_TIMING} className="truncate text-sm font-medium text-ink">
              {displayFileName(item.attributes.name)}
            </p>
            {team && <TeamBadge />}
            {share && !column && <SharedBadge share={share} />}
          </div>
          {column ? (
            <div className="min-w-0 md:hidden">{column.cell(item, true)}</div>
          ) : (
            <p className="truncate text-xs text-muted md:hidden">
              {size} · {date}
            </p>
          )}
        </div>
        {column ? (
          <span role="gridcell" className="hidden w-60 shrink-0 md:block 2xl:w-72">
            {column.cell(item, false)}
          </span>
        ) : (
          <span role="gridcell" className="hidden w-32 shrink-0 text-sm text-muted md:block">
            {date}
          </span>
        )}
        <span
          role="gridcell"
          className="hidden w-24 shrink-0 text-right text-sm text-muted tabular-nums md:block"
        >
          {size}
        </span>
        <FavouriteButton item={item} />
        <ItemMenuButton item={item} toHome={toHome} />
      </div>
    </ItemContextMenu>
  );
});

const ItemCard = memo(function ItemCard({
  item,
  items,
  toHome,
  height,
}: {
  item: FileItem;
  items: readonly FileItem[];
  toHome: boolean;
  height: number;
}) {
  const { selected, selectMode, dropOver, props } = useItemBehaviour(item, items);
  const { size, share, team, thumbnail } = useItemMeta(item);
  return (
    <ItemContextMenu item={item} toHome={toHome}>
      <div
        role="gridcell"
        data-testid="item-card"
        {...props}
        style={{ height }}
        className={cn(
          'group relative flex cursor-default flex-col overflow-hidden rounded-2xl border border-line bg-surface shadow-soft outline-none select-none',
          'transition-[border-color,box-shadow] hover:border-accent/40 focus-visible:ring-2 focus-visible:ring-accent/60 data-[state=open]:border-accent/40',
          selected && 'border-accent ring-2 ring-accent',
          dropOver && 'border-accent ring-2 ring-accent',
        )}
      >
        <div className="relative grid min-h-0 flex-1 place-items-center overflow-hidden bg-surface-2/60">
          <ItemVisual item={item} size="card" thumbnailFor={thumbnail} />
          {(share || team) && (
            <span className="absolute bottom-2 left-2 flex gap-1">
              {team && <TeamBadge className="shadow-soft" />}
              {share && <SharedBadge share={share} className="shadow-soft" />}
            </span>
          )}
        </div>
        <div className="flex h-[60px] shrink-0 items-center gap-1 pr-1 pl-3">
          <div className="min-w-0 flex-1">
            <p elementtiming={FILE_NAME_TIMING} className="truncate text-sm font-medium text-ink">
              {displayFileName(item.attributes.name)}
            </p>
            <p className="truncate text-xs text-muted">{size}</p>
          </div>
          <ItemMenuButton item={item} toHome={toHome} />
        </div>
        {selectMode && (
          <span className="absolute top-2.5 left-2.5">
            <SelectMark selected={selected} />
          </span>
        )}
        <FavouriteButton item={item} className="absolute top-1.5 right-1.5 bg-surface/80 backdrop-blur" />
      </div>
    </ItemContextMenu>
  );
});
