import {
  ArchiveRestore,
  Box,
  Clapperboard,
  Download,
  Eye,
  FolderInput,
  FolderOpen,
  History,
  Inbox,
  Link2,
  Link2Off,
  MoreHorizontal,
  PencilLine,
  Share2,
  Star,
  StarOff,
  Trash2,
  Users,
} from 'lucide-react';
import type { TFunction } from 'i18next';
import { ContextMenu, DropdownMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { isFavourite, useFileActions, type FileActions } from './file-actions';
import type { FileItem } from './files-api';
import { isModelFile } from './item-kind';
import type { MenuEntry } from './menu-entry';
import { useSelection } from './selection-store';
import { menuContentClass, menuItemClass } from '../../components/ui/menu';
import { displayFileName } from '../../lib/file-name';

/** The actions offered for `targets` (one item, or the selection it belongs to). */
function menuEntries(targets: FileItem[], actions: FileActions, t: TFunction, toHome: boolean): MenuEntry[] {
  const [first] = targets;
  if (!first) return [];
  const single = targets.length === 1;
  if (actions.variant === 'trash') {
    return [
      {
        key: 'restore',
        label: t('files.restore'),
        icon: ArchiveRestore,
        run: () => void actions.restore(targets, toHome),
      },
      {
        key: 'force',
        label: t('files.delete_forever'),
        icon: Trash2,
        danger: true,
        run: () => void actions.remove(targets, true),
      },
    ];
  }
  const entries: MenuEntry[] = [];
  if (single && first.type === 'folder')
    entries.push({ key: 'open', label: t('files.open'), icon: FolderOpen, run: () => actions.open(first) });
  if (actions.source.bytes) {
    if (single && actions.canPreview(first))
      entries.push({ key: 'preview', label: t('files.preview'), icon: Eye, run: () => actions.open(first) });
    entries.push({
      key: 'download',
      label: single && first.type === 'file' ? t('files.download') : t('files.download_zip'),
      icon: Download,
      run: () => actions.download(targets),
    });
  }
  // A file's versions are read by its readers: its owner, its team folder's members, a link's visitors.
  if (single && first.type === 'file' && actions.source.versions)
    entries.push({
      key: 'versions',
      label: t('versions.menu'),
      icon: History,
      run: () => actions.versions(first),
    });
  const owner = actions.source.kind === 'owner';
  if (single && owner) {
    // The studio takes a model, or every model of a folder, straight from the files.
    if (isModelFile(first))
      entries.push({
        key: 'project',
        label: t('projects.open_as_project'),
        icon: Box,
        run: () => void actions.openAsProject(first),
      });
    if (first.type === 'folder')
      entries.push({
        key: 'renders',
        label: t('projects.generate_folder'),
        icon: Clapperboard,
        run: () => actions.generateRenders(first),
      });
    const shared = first.relationships.shared.data !== null;
    entries.push({
      key: 'share',
      label: shared ? t('sharing.manage_link') : t('sharing.share'),
      icon: shared ? Link2 : Share2,
      run: () => actions.share(first),
    });
    if (first.type === 'folder')
      entries.push({
        key: 'request',
        label: t('upload_requests.request_files'),
        icon: Inbox,
        run: () => actions.requestFiles(first),
      });
    // A team folder holds no other team, and is not made one twice.
    if (first.type === 'folder' && !actions.source.topIsList && !actions.isTeamFolder(first))
      entries.push({
        key: 'team',
        label: t('teams.convert'),
        icon: Users,
        run: () => actions.makeTeamFolder(first),
      });
    const favourite = isFavourite(first);
    entries.push({
      key: 'favourite',
      label: favourite ? t('files.remove_favourite') : t('files.add_favourite'),
      icon: favourite ? StarOff : Star,
      run: () => void actions.toggleFavourite(first),
    });
  }
  const extra = actions.extras.entries?.(targets) ?? [];
  entries.push(...extra.filter((entry) => !entry.danger));
  const dangerous = extra.filter((entry) => entry.danger);
  if (!actions.source.writable) return [...entries, ...dangerous];
  if (single)
    entries.push({ key: 'edit', label: t('files.rename'), icon: PencilLine, run: () => actions.edit(first) });
  entries.push({
    key: 'move',
    label: t('files.move'),
    icon: FolderInput,
    run: () => actions.askMove(targets),
  });
  if (actions.variant === 'shared')
    entries.push({
      key: 'revoke',
      label: t('sharing.revoke'),
      icon: Link2Off,
      danger: true,
      run: () => void actions.revokeLinks(targets),
    });
  entries.push({
    key: 'delete',
    label: t('files.delete'),
    icon: Trash2,
    danger: true,
    run: () => void actions.remove(targets, false),
  });
  return [...entries, ...dangerous];
}

/** The item itself, or the whole selection when the item is part of it. */
function useTargets(item: FileItem): FileItem[] {
  const clipboard = useSelection((state) => state.clipboard);
  return clipboard.length > 1 && clipboard.some((entry) => entry.id === item.id) ? clipboard : [item];
}

/**
 * The menu's entries for the item (or the selection it belongs to). Rendered inside the menu's content,
 * so they are worked out when the menu opens, not on every row of a listing while it renders.
 */
function Entries({
  item,
  toHome,
  Item,
  Separator,
}: {
  item: FileItem;
  toHome: boolean;
  Item: typeof ContextMenu.Item;
  Separator: typeof ContextMenu.Separator;
}) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const entries = menuEntries(useTargets(item), actions, t, toHome);
  return entries.map((entry, index) => (
    <div key={entry.key}>
      {entry.danger && index > 0 && !entries[index - 1]?.danger && (
        <Separator className="my-1 h-px bg-line" />
      )}
      <Item className={cn(menuItemClass, entry.danger && 'text-danger')} onSelect={entry.run}>
        <entry.icon className="size-4 shrink-0 opacity-80" aria-hidden />
        {entry.label}
      </Item>
    </div>
  ));
}

/** Right-click menu around a row or card. */
export function ItemContextMenu({
  item,
  toHome,
  children,
}: {
  item: FileItem;
  toHome: boolean;
  children: ReactNode;
}) {
  return (
    <ContextMenu.Root>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className={menuContentClass}>
          <Entries item={item} toHome={toHome} Item={ContextMenu.Item} Separator={ContextMenu.Separator} />
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}

/** The "…" button: the same actions for touch screens and keyboards. */
export function ItemMenuButton({
  item,
  toHome,
  className,
}: {
  item: FileItem;
  toHome: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className={cn(
          'grid size-9 shrink-0 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink',
          className,
        )}
        aria-label={t('files.actions_for', { name: displayFileName(item.attributes.name) })}
        onClick={(event) => event.stopPropagation()}
        onDoubleClick={(event) => event.stopPropagation()}
      >
        <MoreHorizontal className="size-4.5" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        {/* The menu is portalled, yet React bubbles its clicks to the row around the button: stop them here. */}
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className={menuContentClass}
          onClick={(event) => event.stopPropagation()}
          onDoubleClick={(event) => event.stopPropagation()}
        >
          <Entries
            item={item}
            toHome={toHome}
            Item={DropdownMenu.Item as typeof ContextMenu.Item}
            Separator={DropdownMenu.Separator as typeof ContextMenu.Separator}
          />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
