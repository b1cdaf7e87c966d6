import {
  ArrowDownWideNarrow,
  Check,
  CheckSquare,
  ChevronRight,
  House,
  LayoutGrid,
  List,
  Trash2,
} from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';
import { useFileActions } from './file-actions';
import type { ItemRef, SortField, SortOrder } from './files-api';
import { useDropTarget } from './item-drag';
import { toggleSelectMode, useSelection } from './selection-store';
import type { ViewMode } from './view-preferences';
import { menuContentClass, menuItemClass } from '../../components/ui/menu';

export interface Crumb {
  id: string | null;
  label: string;
  to: string;
}

const SORT_FIELDS: { field: SortField; labelKey: string }[] = [
  { field: 'created_at', labelKey: 'files.sort.created_at' },
  { field: 'updated_at', labelKey: 'files.sort.updated_at' },
  { field: 'name', labelKey: 'files.sort.name' },
  { field: 'filesize', labelKey: 'files.sort.filesize' },
];

function CrumbLink({
  crumb,
  current,
  onDropItems,
}: {
  crumb: Crumb;
  current: boolean;
  onDropItems?: (items: ItemRef[]) => void;
}) {
  const drop = useDropTarget(onDropItems && !current ? { onItems: onDropItems } : {});
  const Icon = crumb.id === null ? (crumb.to.startsWith('/platform/trash') ? Trash2 : House) : null;
  return (
    <Link
      to={crumb.to}
      {...drop.handlers}
      aria-current={current ? 'page' : undefined}
      className={cn(
        'flex h-8 min-w-0 items-center gap-1.5 rounded-lg px-2 text-sm transition-colors',
        current ? 'font-semibold text-ink' : 'text-muted hover:bg-surface-2 hover:text-ink',
        drop.over && 'bg-accent-soft ring-2 ring-accent',
      )}
    >
      {Icon && <Icon className="size-4 shrink-0" aria-hidden />}
      <span className="truncate">{crumb.label}</span>
    </Link>
  );
}

/** Where the listing sits; crumbs accept dragged items, so an item can move up the tree. */
export function Breadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const canDrop = actions.variant === 'files' && actions.source.writable;
  return (
    <nav aria-label={t('files.breadcrumb')} className="min-w-0">
      <ol className="flex min-w-0 items-center">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          // On narrow screens only the first and the last two crumbs are shown.
          const hiddenOnMobile = index > 0 && index < crumbs.length - 2;
          return (
            <Fragment key={crumb.id ?? 'root'}>
              {index > 0 && (
                <li aria-hidden className={cn('text-muted/60', hiddenOnMobile && 'hidden sm:block')}>
                  <ChevronRight className="size-4" />
                </li>
              )}
              <li
                className={cn('min-w-0', hiddenOnMobile && 'hidden sm:block', last ? 'shrink' : 'shrink-[2]')}
              >
                <CrumbLink
                  crumb={crumb}
                  current={last}
                  onDropItems={
                    canDrop && (crumb.id !== null || !actions.source.topIsList)
                      ? (items) => void actions.moveTo(items, crumb.id)
                      : undefined
                  }
                />
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}

const segmentButton =
  'grid size-9 cursor-pointer place-items-center rounded-lg text-muted transition-colors hover:text-ink aria-pressed:bg-surface aria-pressed:text-ink aria-pressed:shadow-soft';

/** Select mode, sort order and list/grid. */
export function ViewControls({
  order,
  onOrder,
  mode,
  onMode,
  sortable,
  compact,
}: {
  order: SortOrder;
  onOrder: (order: SortOrder) => void;
  mode: ViewMode;
  onMode: (mode: ViewMode) => void;
  sortable: boolean;
  /** While items are selected, phones keep only the select toggle to leave room for the actions. */
  compact: boolean;
}) {
  const { t } = useTranslation();
  const selectMode = useSelection((state) => state.selectMode);

  return (
    <div className="flex shrink-0 items-center gap-1.5">
      <button
        type="button"
        onClick={toggleSelectMode}
        aria-pressed={selectMode}
        aria-label={selectMode ? t('files.done_selecting') : t('files.select')}
        className={cn(
          'flex h-9 cursor-pointer items-center gap-2 rounded-xl px-3 text-sm font-medium transition-colors',
          selectMode ? 'bg-accent text-on-accent' : 'text-muted hover:bg-surface-2 hover:text-ink',
        )}
      >
        <CheckSquare className="size-4" aria-hidden />
        <span className="hidden sm:inline">{selectMode ? t('files.done_selecting') : t('files.select')}</span>
      </button>
      <div className={cn('flex items-center gap-1.5', compact && 'max-sm:hidden')}>
        {sortable && (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger
              className="grid size-9 cursor-pointer place-items-center rounded-xl text-muted hover:bg-surface-2 hover:text-ink"
              aria-label={t('files.sort_by')}
            >
              <ArrowDownWideNarrow className="size-4.5" aria-hidden />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content align="end" sideOffset={4} className={menuContentClass}>
                <DropdownMenu.Label className="px-2.5 py-1.5 text-xs font-semibold tracking-wide text-muted uppercase">
                  {t('files.sort_by')}
                </DropdownMenu.Label>
                <DropdownMenu.RadioGroup
                  value={order.sort}
                  onValueChange={(sort) => onOrder({ ...order, sort: sort as SortField })}
                >
                  {SORT_FIELDS.map(({ field, labelKey }) => (
                    <DropdownMenu.RadioItem key={field} value={field} className={menuItemClass}>
                      <span className="w-4">
                        <DropdownMenu.ItemIndicator>
                          <Check className="size-4 text-accent" aria-hidden />
                        </DropdownMenu.ItemIndicator>
                      </span>
                      {t(labelKey)}
                    </DropdownMenu.RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
                <DropdownMenu.Separator className="my-1 h-px bg-line" />
                <DropdownMenu.RadioGroup
                  value={order.direction}
                  onValueChange={(direction) =>
                    onOrder({ ...order, direction: direction as SortOrder['direction'] })
                  }
                >
                  {(['asc', 'desc'] as const).map((direction) => (
                    <DropdownMenu.RadioItem key={direction} value={direction} className={menuItemClass}>
                      <span className="w-4">
                        <DropdownMenu.ItemIndicator>
                          <Check className="size-4 text-accent" aria-hidden />
                        </DropdownMenu.ItemIndicator>
                      </span>
                      {t(`files.sort.${direction}`)}
                    </DropdownMenu.RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        )}
        <div role="group" aria-label={t('files.view_mode')} className="flex rounded-xl bg-surface-2 p-0.5">
          <button
            type="button"
            aria-pressed={mode === 'list'}
            onClick={() => onMode('list')}
            className={segmentButton}
            aria-label={t('files.view_list')}
          >
            <List className="size-4" aria-hidden />
          </button>
          <button
            type="button"
            aria-pressed={mode === 'grid'}
            onClick={() => onMode('grid')}
            className={segmentButton}
            aria-label={t('files.view_grid')}
          >
            <LayoutGrid className="size-4" aria-hidden />
          </button>
        </div>
      </div>
    </div>
  );
}
