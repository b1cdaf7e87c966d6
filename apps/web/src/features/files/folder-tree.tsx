import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Folder, House } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import type { ItemRef, TreeFolder } from './files-api';
import type { FileSource } from './file-source';
import { useDropTarget } from './item-drag';
import { Emoji } from '../../components/emoji';
import { displayFileName } from '../../lib/file-name';

export function useFolderTree(source: FileSource) {
  return useQuery({ queryKey: source.keys.navigation, queryFn: source.fetchNavigation, staleTime: 30_000 });
}

/** The folders from the top down to `id` (empty for home or an unknown id). */
export function pathTo(tree: readonly TreeFolder[], id: string | null | undefined): TreeFolder[] {
  if (!id) return [];
  for (const folder of tree) {
    if (folder.id === id) return [folder];
    const below = pathTo(folder.folders, id);
    if (below.length > 0) return [folder, ...below];
  }
  return [];
}

/** The ids of `ids` and of every folder inside them: a move may not land there. */
export function withDescendants(tree: readonly TreeFolder[], ids: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const walk = (folders: readonly TreeFolder[], inside: boolean) => {
    for (const folder of folders) {
      const hit = inside || ids.has(folder.id);
      if (hit) found.add(folder.id);
      walk(folder.folders, hit);
    }
  };
  walk(tree, false);
  return found;
}

interface TreeProps {
  tree: readonly TreeFolder[];
  /** The chosen folder: null is home, undefined is nothing chosen yet. */
  selectedId: string | null | undefined;
  onSelect: (id: string | null) => void;
  rootLabel: string;
  /** Folders that cannot be chosen (a move into itself or below). */
  disabledIds?: ReadonlySet<string>;
  /** Home cannot be chosen (the items already live there). */
  rootDisabled?: boolean;
  /** The root only lists folders (the team folders): nothing is dropped on it. */
  rootIsList?: boolean;
  /** Dropping page items on a folder moves them there. */
  onDropItems?: (items: ItemRef[], folderId: string | null) => void;
}

/** The folder tree; the branch leading to the selected folder starts open. */
export function FolderTree({
  tree,
  selectedId,
  onSelect,
  rootLabel,
  disabledIds,
  rootDisabled,
  rootIsList,
  onDropItems,
}: TreeProps) {
  const [expanded, setExpanded] = useState<Set<string>>(
    () => new Set(pathTo(tree, selectedId).map((folder) => folder.id)),
  );
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const renderLevel = (folders: readonly TreeFolder[], depth: number): ReactNode =>
    folders.map((folder) => {
      const open = expanded.has(folder.id);
      return (
        <li
          key={folder.id}
          role="treeitem"
          aria-expanded={folder.folders.length > 0 ? open : undefined}
          aria-selected={folder.id === selectedId}
        >
          <TreeRow
            depth={depth}
            label={displayFileName(folder.name)}
            icon={
              folder.emoji ? (
                <span className="w-4 text-center text-sm leading-none">
                  <Emoji value={folder.emoji} />
                </span>
              ) : (
                <Folder
                  className={cn('size-4 fill-current', !folder.color && 'text-accent')}
                  style={folder.color ? { color: folder.color } : undefined}
                  aria-hidden
                />
              )
            }
            selected={folder.id === selectedId}
            disabled={disabledIds?.has(folder.id)}
            hasChildren={folder.folders.length > 0}
            open={open}
            onToggle={() => toggle(folder.id)}
            onSelect={() => onSelect(folder.id)}
            onDropItems={onDropItems && ((items) => onDropItems(items, folder.id))}
          />
          {open && folder.folders.length > 0 && (
            <ul role="group">{renderLevel(folder.folders, depth + 1)}</ul>
          )}
        </li>
      );
    });

  return (
    <ul role="tree" aria-label={rootLabel} className="flex flex-col gap-0.5">
      <li role="treeitem" aria-selected={selectedId === null}>
        <TreeRow
          depth={0}
          label={rootLabel}
          icon={<House className="size-4" aria-hidden />}
          selected={selectedId === null}
          disabled={rootDisabled}
          hasChildren={false}
          open
          onToggle={() => {}}
          onSelect={() => onSelect(null)}
          onDropItems={onDropItems && !rootIsList ? (items) => onDropItems(items, null) : undefined}
        />
      </li>
      {renderLevel(tree, 0)}
    </ul>
  );
}

interface RowProps {
  depth: number;
  label: string;
  icon: ReactNode;
  selected: boolean;
  disabled?: boolean;
  hasChildren: boolean;
  open: boolean;
  onToggle: () => void;
  onSelect: () => void;
  onDropItems?: (items: ItemRef[]) => void;
}

function TreeRow({
  depth,
  label,
  icon,
  selected,
  disabled,
  hasChildren,
  open,
  onToggle,
  onSelect,
  onDropItems,
}: RowProps) {
  const { t } = useTranslation();
  const drop = useDropTarget(onDropItems && !disabled ? { onItems: onDropItems } : {});
  return (
    <div
      {...drop.handlers}
      className={cn(
        'flex h-9 items-center rounded-lg pr-2 text-sm transition-colors',
        selected ? 'bg-accent-soft font-medium text-ink' : 'text-muted hover:bg-surface-2 hover:text-ink',
        disabled && 'opacity-45 hover:bg-transparent hover:text-muted',
        drop.over && 'bg-accent-soft ring-2 ring-accent',
      )}
      style={{ paddingLeft: depth * 14 }}
    >
      {hasChildren ? (
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          aria-label={t(open ? 'files.collapse_folder' : 'files.expand_folder', { name: label })}
          className="grid size-7 shrink-0 cursor-pointer place-items-center rounded-md hover:bg-surface-2"
        >
          <ChevronRight className={cn('size-3.5 transition-transform', open && 'rotate-90')} aria-hidden />
        </button>
      ) : (
        <span className="size-7 shrink-0" />
      )}
      <button
        type="button"
        disabled={disabled}
        onClick={onSelect}
        className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-left disabled:cursor-not-allowed"
      >
        {icon}
        <span className="truncate">{label}</span>
      </button>
    </div>
  );
}
