import {
  ArchiveRestore,
  ChevronDown,
  CloudUpload,
  Download,
  FileUp,
  FolderInput,
  FolderOpen,
  FolderPlus,
  FolderUp,
  FolderX,
  Globe,
  History,
  Inbox,
  Link2Off,
  Share2,
  Star,
  Trash2,
  TriangleAlert,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Suspense, lazy, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { Breadcrumb, ViewControls, type Crumb } from './browser-toolbar';
import { filesFromFolderInput } from './desktop-drop';
import { FileActionsProvider, useFileActions, type BrowserVariant, type ItemExtras } from './file-actions';
import { FileDialogs, NewFolderRow } from './file-dialogs';
import { FilePreview } from './file-preview';
import type { FileItem, Listing } from './files-api';
import { inAccountFrame, ownerSource, type FileSource } from './file-source';
import { useFolderTreeHost } from './file-manager-layout';
import { FolderTree, pathTo, useFolderTree } from './folder-tree';
import { useDropTarget } from './item-drag';
import { ItemList } from './item-list';
import { useListing } from './listing-cache';
import { clearSelection, selectAll, selectionStore, toggleSelectMode, useSelection } from './selection-store';
import { UploadPanel } from './upload-panel';
import { UploadConflictPrompt } from './upload-conflicts';
import { useFileUploads } from './upload-service';
import { useSortOrder, useViewMode } from './view-preferences';
import { menuContentClass, menuItemClass } from '../../components/ui/menu';
import { displayFileName } from '../../lib/file-name';

// Opened from the upload menu: its address schema (and zod with it) loads then, not with the listing.
const RemoteUploadDialog = lazy(async () => ({
  default: (await import('./remote-upload-dialog')).RemoteUploadDialog,
}));

interface BrowserProps {
  variant: BrowserVariant;
  /** The open folder; null is home (or the top of the trash, or of a share). */
  folderId: string | null;
  /** Where the items come from; the owner's own files unless a share page says otherwise. */
  source?: FileSource;
  /** What the top folder is called (home for the owner; the shared folder on a share page). */
  topLabel?: string;
  /** The small line above the title. */
  eyebrow?: string;
  /** More buttons beside the title (a share page's "Download all"). */
  headerActions?: ReactNode;
  /** What an empty listing says, where the screen knows better than the file manager. */
  emptyState?: ReactNode;
  /** The screen's own menu entries and column for the items. */
  extras?: ItemExtras;
}

/** The file manager of /platform/files, recent uploads, trash, My shared items, and of share pages. */
export function FileBrowser({ source = ownerSource, extras, ...props }: BrowserProps) {
  return (
    <FileActionsProvider variant={props.variant} source={source} extras={extras}>
      <BrowserScreen {...props} />
    </FileActionsProvider>
  );
}

/** The line a flat list (no folders, no breadcrumb) shows in the breadcrumb's place. */
const FLAT_LIST_HINTS: Partial<Record<BrowserVariant, string>> = {
  latest: 'files.recent_uploads_hint',
  favourites: 'files.favourites_hint',
  shared: 'sharing.my_shared_items_hint',
};

function listingFor(variant: BrowserVariant, folderId: string | null): Listing {
  if (variant === 'latest' || variant === 'favourites' || variant === 'shared') return { kind: variant };
  return { kind: variant === 'trash' ? 'trash' : 'folder', id: folderId };
}

/** Folder links of the breadcrumb: the top, the ancestors from the tree, then the open folder. */
function useCrumbs(
  variant: BrowserVariant,
  folderId: string | null,
  root: FileItem | null,
  topLabel: string,
): Crumb[] {
  const { t } = useTranslation();
  const { source } = useFileActions();
  const tree = useFolderTree(source);
  if (variant === 'trash') {
    const top: Crumb = { id: null, label: t('files.trash'), to: '/platform/trash' };
    return folderId && root
      ? [
          top,
          { id: folderId, label: displayFileName(root.attributes.name), to: `/platform/trash/${folderId}` },
        ]
      : [top];
  }
  const home: Crumb = { id: null, label: topLabel, to: source.folderPath(null) };
  if (!folderId) return [home];
  const path = pathTo(tree.data ?? [], folderId).map((folder) => ({
    id: folder.id,
    label: displayFileName(folder.name),
    to: source.folderPath(folder.id),
  }));
  if (path.length > 0) return [home, ...path];
  return [
    home,
    {
      id: folderId,
      label: root ? displayFileName(root.attributes.name) : '…',
      to: source.folderPath(folderId),
    },
  ];
}

function screenTitle(
  variant: BrowserVariant,
  folderId: string | null,
  root: FileItem | null,
  topLabel: string,
  t: TFunction,
) {
  if (variant === 'latest') return t('files.recent_uploads');
  if (variant === 'favourites') return t('files.favourites');
  if (variant === 'shared') return t('sharing.my_shared_items');
  // The top is called what the screen calls it, even where the server names a folder behind it.
  const open = folderId ? root : null;
  return open ? displayFileName(open.attributes.name) : variant === 'trash' ? t('files.trash') : topLabel;
}

function BrowserScreen({
  variant,
  folderId,
  topLabel: topLabelProp,
  eyebrow,
  headerActions,
  emptyState,
}: BrowserProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const actions = useFileActions();
  const { source } = actions;
  const uploads = useFileUploads();
  const [order, setOrder] = useSortOrder();
  const [mode, setMode] = useViewMode();
  const listing = useMemo(() => listingFor(variant, folderId), [variant, folderId]);
  const query = useListing(source, listing, order);
  const items = useMemo(() => query.data?.items ?? [], [query.data]);
  const root = query.data?.root ?? null;
  const topLabel = topLabelProp ?? t('files.my_files');
  const crumbs = useCrumbs(variant, folderId, root, topLabel);
  const tree = useFolderTree(source);
  const treeHost = useFolderTreeHost();
  const clipboard = useSelection((state) => state.clipboard);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  /** The upload-from-URLs dialog: null until first opened, so its code loads only then. */
  const [fromUrls, setFromUrls] = useState<boolean | null>(null);
  const { closeDialog, setDialog } = actions;

  // A new place starts with nothing selected and no dialog open.
  useEffect(() => {
    clearSelection();
    closeDialog();
  }, [variant, folderId, closeDialog]);

  // The spotlight hands over a file to show once its folder is open.
  const previewRequest = (location.state as { preview?: FileItem } | null)?.preview;
  useEffect(() => {
    if (!previewRequest) return;
    setDialog({ kind: 'preview', item: previewRequest });
    navigate(location.pathname, { replace: true, state: null });
  }, [previewRequest, setDialog, navigate, location.pathname]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable], [role="dialog"], [role="menu"]'))
        return;
      const { clipboard: selected } = selectionStore.get();
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
        event.preventDefault();
        selectAll(items);
      } else if (event.key === 'Escape' && selected.length > 0) {
        clearSelection();
      } else if (
        (event.key === 'Delete' || event.key === 'Backspace') &&
        selected.length > 0 &&
        source.writable
      ) {
        event.preventDefault();
        void actions.remove(selected, variant === 'trash');
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [items, actions, variant, source]);

  const canUpload = variant === 'files' && source.writable;
  const drop = useDropTarget(canUpload ? { onFiles: (files) => uploads.add(files, folderId) } : {});
  const title = screenTitle(variant, folderId, root, topLabel, t);
  const toHome = variant === 'trash' && folderId !== null;
  const folderTree = tree.data && (
    <FolderTree
      key={folderId ?? 'root'}
      tree={tree.data}
      selectedId={folderId}
      onSelect={(id) => navigate(source.folderPath(id))}
      rootLabel={topLabel}
      rootIsList={source.topIsList}
      onDropItems={source.writable ? (dragged, target) => void actions.moveTo(dragged, target) : undefined}
    />
  );
  // Inside the file manager the tree sits under the open view in its navigation; a share page has its own column.
  const ownTreeColumn = variant === 'files' && !treeHost;

  return (
    <section className="flex flex-col gap-5">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="truncate text-xs font-semibold tracking-[0.14em] text-accent uppercase">
            {eyebrow ?? t('files.area')}
          </p>
          <h1 className="truncate font-display text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {headerActions}
          {canUpload && (
            <>
              <Button
                variant="secondary"
                onClick={() => actions.newFolder(folderId)}
                aria-label={t('files.new_folder')}
              >
                <FolderPlus className="size-4" aria-hidden />
                {/* Beside a screen's own buttons, phones keep one row: the icon alone says it there. */}
                <span className={headerActions ? 'hidden sm:inline' : undefined}>
                  {t('files.new_folder')}
                </span>
              </Button>
              <DropdownMenu.Root>
                <DropdownMenu.Trigger asChild>
                  <Button>
                    <CloudUpload className="size-4" aria-hidden />
                    {t('files.upload')}
                    <ChevronDown className="size-4 opacity-80" aria-hidden />
                  </Button>
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content align="end" sideOffset={6} className={menuContentClass}>
                    <UploadMenuItem
                      icon={FileUp}
                      label={t('files.upload_files')}
                      onSelect={() => fileInput.current?.click()}
                    />
                    <UploadMenuItem
                      icon={FolderUp}
                      label={t('files.upload_folder')}
                      onSelect={() => folderInput.current?.click()}
                    />
                    {source.kind === 'owner' && (
                      <>
                        {/* Files the server downloads from addresses on the web, into this folder. */}
                        <UploadMenuItem
                          icon={Globe}
                          label={t('remote_upload.menu')}
                          onSelect={() => setFromUrls(true)}
                        />
                        <DropdownMenu.Separator className="my-1 h-px bg-line" />
                        {/* Files from someone without an account, into a new folder of their own. */}
                        <UploadMenuItem
                          icon={Inbox}
                          label={t('upload_requests.new_request')}
                          onSelect={() => actions.requestFiles(null)}
                        />
                        {/* A new folder shared with the people invited to it (no team inside a team). */}
                        {!source.topIsList && (
                          <UploadMenuItem
                            icon={Users}
                            label={t('teams.new_team_folder')}
                            onSelect={() => actions.makeTeamFolder(null)}
                          />
                        )}
                      </>
                    )}
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                data-testid="upload-files-input"
                onChange={(event) => {
                  uploads.add(Array.from(event.target.files ?? []), folderId);
                  event.target.value = '';
                }}
              />
              <input
                ref={folderInput}
                type="file"
                hidden
                data-testid="upload-folder-input"
                {...{ webkitdirectory: '' }}
                onChange={(event) => {
                  if (event.target.files) uploads.add(filesFromFolderInput(event.target.files), folderId);
                  event.target.value = '';
                }}
              />
            </>
          )}
          {variant === 'trash' && (
            <Button
              variant="secondary"
              className="text-danger"
              onClick={() => void actions.emptyTrash()}
              disabled={items.length === 0 && !folderId}
            >
              <Trash2 className="size-4" aria-hidden />
              {t('files.empty_trash')}
            </Button>
          )}
        </div>
      </header>

      {/* The selection's actions take the breadcrumb's place, so picking an item never moves the list under the pointer. */}
      <div className="sticky top-16 z-20 -mt-2 flex h-14 items-center justify-between gap-2 border-b border-line bg-paper/90 backdrop-blur-md sm:gap-3">
        {clipboard.length > 0 ? (
          <SelectionBar items={items} toHome={toHome} />
        ) : variant in FLAT_LIST_HINTS ? (
          <p className="line-clamp-2 min-w-0 text-xs text-muted sm:truncate sm:text-sm">
            {t(FLAT_LIST_HINTS[variant]!)}
          </p>
        ) : (
          <Breadcrumb crumbs={crumbs} />
        )}
        <ViewControls
          order={order}
          onOrder={setOrder}
          mode={mode}
          onMode={setMode}
          sortable={variant !== 'latest' && variant !== 'favourites'}
          compact={clipboard.length > 0}
        />
      </div>

      <div className={cn('grid gap-6', ownTreeColumn && 'xl:grid-cols-[15rem_minmax(0,1fr)]')}>
        {ownTreeColumn && (
          <aside className="hidden xl:block">
            <div className="sticky top-[8.5rem] max-h-[calc(100dvh-10rem)] overflow-y-auto">
              <p className="mb-2 px-2 text-xs font-semibold tracking-wide text-muted uppercase">
                {t('files.folders')}
              </p>
              {folderTree}
            </div>
          </aside>
        )}
        {/* Under the view's own entry, a tree of no folders would only name that entry again. */}
        {variant === 'files' && treeHost && tree.data?.length ? createPortal(folderTree, treeHost) : null}

        <div
          {...drop.handlers}
          data-testid="file-drop-zone"
          className={cn(
            'relative min-h-[50vh] rounded-2xl transition-colors',
            drop.over && 'bg-accent-soft/50 outline-2 -outline-offset-2 outline-accent outline-dashed',
          )}
        >
          {actions.dialog?.kind === 'new-folder' && <NewFolderRow parentId={actions.dialog.parentId} />}
          {mode === 'list' && items.length > 0 && <ListHeader variant={variant} />}
          {query.isPending ? (
            <ListSkeleton mode={mode} />
          ) : query.error instanceof ApiError && query.error.status === 404 ? (
            <EmptyState
              icon={FolderX}
              title={t('files.folder_missing')}
              body={t('files.folder_missing_hint')}
            />
          ) : query.isError ? (
            <EmptyState
              icon={TriangleAlert}
              title={t('files.load_failed')}
              body={t('files.load_failed_hint')}
            />
          ) : items.length === 0 ? (
            (emptyState ?? <BrowserEmptyState variant={variant} source={source} />)
          ) : (
            <ItemList
              items={items}
              mode={mode}
              hasNextPage={query.hasNextPage}
              isFetchingNextPage={query.isFetchingNextPage}
              fetchNextPage={() => void query.fetchNextPage()}
              toHome={toHome}
            />
          )}
          {drop.over && (
            <div
              className={cn(
                'pointer-events-none fixed inset-x-0 bottom-10 z-30 flex justify-center',
                // Centred on the content: signed-in screens have the sidebar on the left, share pages none.
                inAccountFrame(source) && 'lg:pl-72',
              )}
            >
              <span className="flex items-center gap-2 rounded-full bg-accent px-4 py-2 text-sm font-medium text-on-accent shadow-lift">
                <CloudUpload className="size-4" aria-hidden />
                {t('files.drop_to_upload')}
              </span>
            </div>
          )}
        </div>
      </div>

      <FileDialogs topLabel={topLabel} />
      {canUpload && source.kind === 'owner' && fromUrls !== null && (
        <Suspense>
          <RemoteUploadDialog parentId={folderId} open={fromUrls} onOpenChange={setFromUrls} />
        </Suspense>
      )}
      <FilePreview items={items} />
      <UploadPanel />
      <UploadConflictPrompt />
    </section>
  );
}

function UploadMenuItem({
  icon: Icon,
  label,
  onSelect,
}: {
  icon: LucideIcon;
  label: string;
  onSelect: () => void;
}) {
  return (
    <DropdownMenu.Item onSelect={onSelect} className={menuItemClass}>
      <Icon className="size-4 opacity-80" aria-hidden />
      {label}
    </DropdownMenu.Item>
  );
}

function ListHeader({ variant }: { variant: BrowserVariant }) {
  const { t } = useTranslation();
  const { source, extras } = useFileActions();
  const favourites = source.kind === 'owner' && variant !== 'trash';
  return (
    <div
      className="hidden h-9 items-center gap-3 px-3 text-xs font-semibold tracking-wide text-muted uppercase md:flex"
      aria-hidden
    >
      <span className="w-10" />
      <span className="flex-1">{t('files.name')}</span>
      <span className={extras.column ? 'w-60 2xl:w-72' : 'w-32'}>
        {extras.column?.label ?? (variant === 'trash' ? t('files.deleted') : t('files.created'))}
      </span>
      <span className="w-24 text-right">{t('files.size')}</span>
      {/* Room for the favourite star (the owner's, not in the trash) and the actions button. */}
      <span className={favourites ? 'w-[5.25rem]' : 'w-9'} />
    </div>
  );
}

function SelectionBar({ items, toHome }: { items: FileItem[]; toHome: boolean }) {
  const { t } = useTranslation();
  const actions = useFileActions();
  const clipboard = useSelection((state) => state.clipboard);
  const selectMode = useSelection((state) => state.selectMode);
  const inTrash = actions.variant === 'trash';

  return (
    <div
      role="toolbar"
      aria-label={t('files.selection')}
      className="flex min-w-0 flex-1 animate-fade-in items-center gap-0.5 sm:gap-1"
    >
      <button
        type="button"
        onClick={selectMode ? toggleSelectMode : clearSelection}
        className="grid size-9 shrink-0 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink"
        aria-label={t('files.clear_selection')}
      >
        <X className="size-4" aria-hidden />
      </button>
      <p className="mr-auto truncate pr-1 text-sm font-semibold text-ink">
        {t('files.selected_count', { count: clipboard.length })}
      </p>
      {clipboard.length < items.length && (
        <Button
          variant="ghost"
          size="sm"
          className={cn(selectionButtonClass, 'hidden md:inline-flex')}
          onClick={() => selectAll(items)}
        >
          {t('files.select_all')}
        </Button>
      )}
      {inTrash ? (
        <>
          <SelectionAction
            icon={ArchiveRestore}
            label={t('files.restore')}
            labelAlways
            onClick={() => void actions.restore(clipboard, toHome)}
          />
          <SelectionAction
            icon={Trash2}
            label={t('files.delete_forever')}
            danger
            onClick={() => void actions.remove(clipboard, true)}
          />
        </>
      ) : (
        <>
          {actions.source.bytes && (
            <SelectionAction
              icon={Download}
              label={t('files.download')}
              onClick={() => actions.download(clipboard)}
            />
          )}
          {actions.variant === 'shared' && (
            <SelectionAction
              icon={Link2Off}
              label={t('sharing.revoke')}
              danger
              onClick={() => void actions.revokeLinks(clipboard)}
            />
          )}
          {actions.source.writable && (
            <>
              <SelectionAction
                icon={FolderInput}
                label={t('files.move')}
                onClick={() => actions.askMove(clipboard)}
              />
              <SelectionAction
                icon={Trash2}
                label={t('files.delete')}
                danger
                onClick={() => void actions.remove(clipboard, false)}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}

const selectionButtonClass = 'h-9 gap-2 px-2.5 sm:px-3';

/** One action of the selection bar; on phones only its icon shows, so its name is always set. */
function SelectionAction({
  icon: Icon,
  label,
  onClick,
  danger = false,
  labelAlways = false,
}: {
  icon: LucideIcon;
  label: string;
  onClick: () => void;
  danger?: boolean;
  labelAlways?: boolean;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className={cn(selectionButtonClass, danger && 'text-danger')}
      onClick={onClick}
      aria-label={label}
    >
      <Icon className="size-4" aria-hidden />
      <span className={labelAlways ? undefined : 'hidden md:inline'}>{label}</span>
    </Button>
  );
}

function BrowserEmptyState({ variant, source }: { variant: BrowserVariant; source: FileSource }) {
  const { t } = useTranslation();
  if (variant === 'shared')
    return <EmptyState icon={Share2} title={t('sharing.empty_title')} body={t('sharing.empty_body')} />;
  if (source.kind === 'upload-request')
    return (
      <EmptyState
        icon={CloudUpload}
        title={t('upload_requests.empty_title')}
        body={t('upload_requests.empty_body')}
      />
    );
  if (!source.writable)
    return (
      <EmptyState
        icon={FolderOpen}
        title={t('files.empty.folder_title')}
        body={t('sharing.empty_folder_body')}
      />
    );
  if (variant === 'trash')
    return (
      <EmptyState icon={Trash2} title={t('files.empty.trash_title')} body={t('files.empty.trash_body')} />
    );
  if (variant === 'latest')
    return (
      <EmptyState icon={History} title={t('files.empty.latest_title')} body={t('files.empty.latest_body')} />
    );
  if (variant === 'favourites')
    return (
      <EmptyState
        icon={Star}
        title={t('files.empty.favourites_title')}
        body={t('files.empty.favourites_body')}
      />
    );
  return (
    <EmptyState
      icon={CloudUpload}
      title={t('files.empty.folder_title')}
      body={t('files.empty.folder_body')}
    />
  );
}

function ListSkeleton({ mode }: { mode: 'list' | 'grid' }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-label={t('files.loading')}
      className={mode === 'grid' ? 'grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4' : 'flex flex-col'}
    >
      {Array.from({ length: 8 }, (_, index) =>
        mode === 'grid' ? (
          <div key={index} className="aspect-[4/4] animate-pulse rounded-2xl bg-surface-2" />
        ) : (
          <div key={index} className="flex h-[60px] items-center gap-3 px-3">
            <div className="size-10 animate-pulse rounded-lg bg-surface-2" />
            <div
              className="h-3.5 animate-pulse rounded bg-surface-2"
              style={{ width: `${30 + ((index * 17) % 40)}%` }}
            />
          </div>
        ),
      )}
    </div>
  );
}
