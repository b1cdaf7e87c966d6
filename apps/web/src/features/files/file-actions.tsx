import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { askConfirm, pushToast, showAlert } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../session/session-queries';
import { revokeShares } from '../sharing/share-cache';
import { useTeamFolderIds } from '../teams/teams-api';
import { filesApi, filesKeys, type FileItem, type ItemRef } from './files-api';
import type { FileSource, FolderChanges } from './file-source';
import { isModelFile, previewKind } from './item-kind';
import { addCachedItem, findCachedItems, patchCachedItems, removeCachedItems } from './listing-cache';
import type { MenuEntry } from './menu-entry';
import { clearSelection, forgetSelected } from './selection-store';
import { displayFileName } from '../../lib/file-name';
import { startDownload } from '../../lib/start-download';

/** Which screen the actions serve: a folder, the latest uploads, the trash, or the owner's shared items. */
export type BrowserVariant = 'files' | 'latest' | 'favourites' | 'trash' | 'shared';

export type FileDialog =
  | { kind: 'new-folder'; parentId: string | null }
  | { kind: 'edit'; item: FileItem }
  | { kind: 'move'; items: FileItem[] }
  | { kind: 'preview'; item: FileItem }
  | { kind: 'share'; item: FileItem }
  /** Ask an outsider for files: into a folder, or (null) into a new one. */
  | { kind: 'upload-request'; folder: FileItem | null }
  /** Share a folder with a team: an existing one, or (null) a new one. */
  | { kind: 'team-folder'; folder: FileItem | null }
  /** Render every model of a folder in the studio. */
  | { kind: 'generate-renders'; folder: FileItem }
  /** A file's details and versions. */
  | { kind: 'versions'; item: FileItem }
  | null;

/** What a screen adds to the file manager's items (the team folders' own actions and column). */
export interface ItemExtras {
  /** More entries of an item's menu; dangerous ones come last. */
  entries?: (targets: FileItem[]) => MenuEntry[];
  /** A column of the screen's own in place of the date; `compact` is the line under the name on phones. */
  column?: { label: string; cell: (item: FileItem, compact: boolean) => ReactNode };
}

export function isFavourite(item: FileItem): boolean {
  return item.relationships.favourites.data !== null;
}

function withFavourite(item: FileItem, favourite: boolean): FileItem {
  const data = favourite ? { id: item.id, type: 'favourite' as const } : null;
  return { ...item, relationships: { ...item.relationships, favourites: { data } } };
}

function useFileActionsValue(variant: BrowserVariant, source: FileSource, extras: ItemExtras) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showGenericError = useGenericError();
  const { resource } = useSession();
  // The owner's account limits; inside someone's share the server applies the sharer's.
  const restrictions = source.kind === 'owner' ? resource?.meta.restrictions : undefined;
  const [dialog, setDialog] = useState<FileDialog>(null);
  const teamFolderIds = useTeamFolderIds(source.kind === 'owner');
  const closeDialog = useCallback(() => setDialog(null), []);
  const listings = source.keys.listings;

  const refreshTree = useCallback(
    () => queryClient.invalidateQueries({ queryKey: source.keys.navigation }),
    [queryClient, source],
  );
  const refreshListings = useCallback(
    () => queryClient.invalidateQueries({ queryKey: source.keys.listings }),
    [queryClient, source],
  );

  /** Runs a change; on failure shows the generic alert and reloads the listings to undo guesses. */
  const attempt = useCallback(
    async (task: () => Promise<unknown>) => {
      try {
        await task();
        return true;
      } catch {
        showGenericError();
        void refreshListings();
        return false;
      }
    },
    [showGenericError, refreshListings],
  );

  const canDownload = useCallback(() => {
    if (restrictions?.canDownload === false) {
      showAlert(t('download_temporarily_disabled.title'), t('download_temporarily_disabled.message'));
      return false;
    }
    return true;
  }, [restrictions, t]);

  const download = useCallback(
    (items: readonly FileItem[]) => {
      const { bytes } = source;
      if (!bytes || items.length === 0 || !canDownload()) return;
      const [only] = items;
      startDownload(
        items.length === 1 && only?.type === 'file' ? bytes.fileUrl(only, true) : bytes.zipUrl(items),
      );
    },
    [canDownload, source],
  );

  /** What the viewer shows: what the browser can, and the owner's own models, in 3D. */
  const canPreview = useCallback(
    (item: FileItem) =>
      previewKind(item) !== 'none' || (source.kind === 'owner' && isModelFile(item) && variant !== 'trash'),
    [source.kind, variant],
  );

  const open = useCallback(
    (item: FileItem) => {
      if (item.type === 'folder') {
        navigate(variant === 'trash' ? `/platform/trash/${item.id}` : source.folderPath(item.id));
        return;
      }
      // Nothing opens where bytes cannot be read back (an upload request).
      if (!source.bytes) return;
      if (canPreview(item)) setDialog({ kind: 'preview', item });
      else download([item]);
    },
    [navigate, variant, source, download, canPreview],
  );

  /** A new studio project holding a copy of the model, opened on its settings beside the 3D view. */
  const openAsProject = useCallback(
    async (item: FileItem) => {
      // The project holds a copy of the model: stored like an upload, refused like one.
      if (restrictions?.canUpload === false) {
        showAlert(t('upload_temporarily_disabled.title'), t('upload_temporarily_disabled.message'));
        return;
      }
      try {
        // The studio's code loads when it is first asked for, not with the file manager.
        const { createProjectFromFile } = await import('../projects/projects-api');
        const project = await createProjectFromFile(item.id);
        void queryClient.invalidateQueries({ queryKey: filesKeys.storage });
        setDialog(null);
        navigate(`/projects/files/customize/${project.id}`);
      } catch (error) {
        if (error instanceof ApiError && [401, 403, 422, 423].includes(error.status))
          showAlert(error.message || t('popup_error.title'));
        else showGenericError();
      }
    },
    [restrictions, queryClient, navigate, showGenericError, t],
  );

  const newFolder = useCallback(
    (parentId: string | null) => {
      if (restrictions?.canCreateFolder === false) {
        showAlert(
          t('create_folder_temporarily_disabled.title'),
          t('create_folder_temporarily_disabled.message'),
        );
        return;
      }
      setDialog({ kind: 'new-folder', parentId });
    },
    [restrictions, t],
  );

  const makeTeamFolder = useCallback(
    (folder: FileItem | null) => {
      if (restrictions?.canCreateTeamFolder === false) {
        showAlert(
          t('create_team_folder_temporarily_disabled.title'),
          t('create_team_folder_temporarily_disabled.message'),
        );
        return;
      }
      setDialog({ kind: 'team-folder', folder });
    },
    [restrictions, t],
  );

  const createFolder = useCallback(
    async (body: { name: string; emoji: string | null; parent_id: string | null }) => {
      try {
        const folder = await source.createFolder(body);
        addCachedItem(queryClient, listings, folder);
        if (body.parent_id) {
          patchCachedItems(queryClient, listings, [body.parent_id], (parent) => ({
            ...parent,
            attributes: { ...parent.attributes, items: (parent.attributes.items ?? 0) + 1 },
          }));
        }
        void refreshTree();
        return true;
      } catch (error) {
        // Section 8: the alert is titled with the server's message when there is one.
        showAlert(error instanceof Error && error.message ? error.message : t('popup_error.title'));
        return false;
      }
    },
    [queryClient, source, listings, refreshTree, t],
  );

  const saveItem = useCallback(
    async (item: FileItem, changes: FolderChanges) => {
      const ok = await attempt(async () => {
        const saved = await source.rename(item, changes);
        patchCachedItems(queryClient, listings, [item.id], (current) => ({
          ...current,
          attributes: { ...current.attributes, ...saved.attributes },
        }));
      });
      if (ok && item.type === 'folder') void refreshTree();
      return ok;
    },
    [attempt, queryClient, source, listings, refreshTree],
  );

  /** Moves the items and takes them out of the listings they left; answers whether the server took it. */
  const moveItems = useCallback(
    async (items: readonly ItemRef[], toId: string | null) => {
      const ok = await attempt(() => source.move(toId, items));
      if (ok) {
        const ids = items.map((item) => item.id);
        removeCachedItems(queryClient, listings, ids);
        forgetSelected(ids);
        void refreshListings();
        if (items.some((item) => item.type === 'folder')) void refreshTree();
      }
      return ok;
    },
    [attempt, queryClient, source, listings, refreshListings, refreshTree],
  );

  /** Sends items to the trash or deletes them for good; answers whether the server took it. */
  const removeItems = useCallback(
    async (items: readonly FileItem[], force: boolean) => {
      const ids = items.map((item) => item.id);
      const ok = await attempt(() => source.remove(items, force));
      if (ok) {
        removeCachedItems(queryClient, listings, ids);
        forgetSelected(ids);
        void refreshListings();
        void queryClient.invalidateQueries({ queryKey: filesKeys.storage });
        if (items.some((item) => item.type === 'folder')) void refreshTree();
      }
      return ok;
    },
    [attempt, queryClient, source, listings, refreshListings, refreshTree],
  );

  /** Takes items out of the trash (`toHome`: to My files, else where each was); answers whether it worked. */
  const restoreItems = useCallback(
    async (items: readonly FileItem[], toHome: boolean) => {
      const ids = items.map((item) => item.id);
      const ok = await attempt(() => filesApi.restore(items, toHome));
      if (ok) {
        removeCachedItems(queryClient, listings, ids);
        forgetSelected(ids);
        void refreshListings();
        void queryClient.invalidateQueries({ queryKey: filesKeys.storage });
        void refreshTree();
      }
      return ok;
    },
    [attempt, queryClient, listings, refreshListings, refreshTree],
  );

  /** What a toast calls the items it speaks of: the one item's name, or how many. */
  const named = useCallback((items: readonly (ItemRef | FileItem)[]) => {
    const first = items[0];
    return {
      count: items.length,
      name: first && 'attributes' in first ? displayFileName(first.attributes.name) : '',
    };
  }, []);

  const moveTo = useCallback(
    async (items: readonly ItemRef[], toId: string | null) => {
      const moving = items.filter((item) => item.id !== toId);
      if (moving.length === 0) return false;
      // Where each item was, read from the listings that show it, so Undo can put it back.
      const shown = findCachedItems(
        queryClient,
        listings,
        moving.map((item) => item.id),
      );
      const origins = moving.map((item) => ({ item, from: shown.get(item.id)?.attributes.parent_id }));
      const ok = await moveItems(moving, toId);
      if (!ok) return false;
      const putBack = () => {
        const byFolder = new Map<string | null, ItemRef[]>();
        for (const { item, from = null } of origins)
          byFolder.set(from, [...(byFolder.get(from) ?? []), item]);
        for (const [from, group] of byFolder) void moveItems(group, from);
      };
      const known = origins.every((origin) => origin.from !== undefined);
      pushToast(
        'success',
        t('files.toast_moved', named(moving.map((item) => shown.get(item.id) ?? item))),
        known ? [{ label: t('files.undo'), run: putBack }] : undefined,
      );
      return true;
    },
    [queryClient, listings, moveItems, named, t],
  );

  const remove = useCallback(
    async (items: readonly FileItem[], force: boolean) => {
      if (items.length === 0) return;
      if (force) {
        const confirmed = await askConfirm({
          title: t('files.confirm_force_delete.title'),
          message: t('files.confirm_force_delete.message', { count: items.length }),
          confirmLabel: t('files.delete_forever'),
          danger: true,
        });
        if (!confirmed) return;
      }
      if (!(await removeItems(items, force))) return;
      if (force) {
        pushToast('success', t('files.toast_deleted', named(items)));
        return;
      }
      // Only the owner has the trash to take them back from; a share or team member's delete lands in the owner's.
      pushToast(
        'success',
        t('files.toast_trashed', named(items)),
        source.kind === 'owner'
          ? [
              { label: t('files.undo'), run: () => void restoreItems(items, false) },
              { label: t('files.open_trash'), to: '/platform/trash' },
            ]
          : undefined,
      );
    },
    [removeItems, restoreItems, named, source.kind, t],
  );

  const restore = useCallback(
    /** `toHome`: items picked inside a trashed folder go home, since their old parent stays in the trash. */
    async (items: readonly FileItem[], toHome: boolean) => {
      if (items.length === 0 || !(await restoreItems(items, toHome))) return;
      pushToast('success', t(toHome ? 'files.toast_restored_home' : 'files.toast_restored', named(items)), [
        { label: t('files.undo'), run: () => void removeItems(items, false) },
      ]);
    },
    [restoreItems, removeItems, named, t],
  );

  const emptyTrash = useCallback(async () => {
    const confirmed = await askConfirm({
      title: t('files.confirm_empty_trash.title'),
      message: t('files.confirm_empty_trash.message'),
      confirmLabel: t('files.empty_trash'),
      danger: true,
    });
    if (!confirmed) return;
    if (await attempt(() => filesApi.emptyTrash())) {
      clearSelection();
      pushToast('success', t('toaster.trash_cleared'));
      void refreshListings();
      void queryClient.invalidateQueries({ queryKey: filesKeys.storage });
    }
  }, [attempt, queryClient, refreshListings, t]);

  /** Favourites change at once on screen and are put back if the server refuses (section 4). */
  const toggleFavourite = useCallback(
    async (item: FileItem) => {
      const next = !isFavourite(item);
      patchCachedItems(queryClient, listings, [item.id], (current) => withFavourite(current, next));
      try {
        if (next) await filesApi.addFavourites([item.id]);
        else await filesApi.removeFavourite(item.id);
        void queryClient.invalidateQueries({ queryKey: [...listings, 'favourites'] });
      } catch {
        patchCachedItems(queryClient, listings, [item.id], (current) => withFavourite(current, !next));
        showGenericError();
      }
    },
    [queryClient, listings, showGenericError],
  );

  /** Ends the public links of shared items, after a confirmation; they leave My shared items. */
  const revokeLinks = useCallback(
    async (items: readonly FileItem[]) => {
      const tokens = items.flatMap((item) => item.relationships.shared.data?.token ?? []);
      if (tokens.length === 0) return;
      const confirmed = await askConfirm({
        title: t('sharing.confirm_revoke.title', { count: tokens.length }),
        message: t('sharing.confirm_revoke.message', {
          count: tokens.length,
          name: items[0] && displayFileName(items[0].attributes.name),
        }),
        confirmLabel: t('sharing.revoke'),
        danger: true,
      });
      if (!confirmed) return;
      if (await attempt(() => revokeShares(queryClient, tokens))) {
        forgetSelected(items.map((item) => item.id));
        pushToast('success', t('sharing.revoked', { count: tokens.length }));
      }
    },
    [attempt, queryClient, t],
  );

  return useMemo(
    () => ({
      variant,
      source,
      dialog,
      setDialog,
      closeDialog,
      open,
      download,
      newFolder,
      createFolder,
      saveItem,
      edit: (item: FileItem) => setDialog({ kind: 'edit', item }),
      share: (item: FileItem) => setDialog({ kind: 'share', item }),
      versions: (item: FileItem) => setDialog({ kind: 'versions', item }),
      requestFiles: (folder: FileItem | null) => setDialog({ kind: 'upload-request', folder }),
      generateRenders: (folder: FileItem) => setDialog({ kind: 'generate-renders', folder }),
      canPreview,
      openAsProject,
      makeTeamFolder,
      isTeamFolder: (item: FileItem) => teamFolderIds.has(item.id),
      extras,
      revokeLinks,
      askMove: (items: FileItem[]) => items.length > 0 && setDialog({ kind: 'move', items }),
      moveTo,
      remove,
      restore,
      emptyTrash,
      toggleFavourite,
    }),
    [
      variant,
      source,
      dialog,
      closeDialog,
      open,
      canPreview,
      openAsProject,
      download,
      newFolder,
      createFolder,
      saveItem,
      moveTo,
      remove,
      restore,
      emptyTrash,
      toggleFavourite,
      revokeLinks,
      makeTeamFolder,
      teamFolderIds,
      extras,
    ],
  );
}

export type FileActions = ReturnType<typeof useFileActionsValue>;

const FileActionsContext = createContext<FileActions | null>(null);
const NO_EXTRAS: ItemExtras = {};

export function FileActionsProvider({
  variant,
  source,
  extras = NO_EXTRAS,
  children,
}: {
  variant: BrowserVariant;
  source: FileSource;
  extras?: ItemExtras;
  children: ReactNode;
}) {
  const value = useFileActionsValue(variant, source, extras);
  return <FileActionsContext.Provider value={value}>{children}</FileActionsContext.Provider>;
}

export function useFileActions(): FileActions {
  const actions = useContext(FileActionsContext);
  if (!actions) throw new Error('useFileActions needs a FileActionsProvider');
  return actions;
}
