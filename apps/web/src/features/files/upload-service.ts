import type { PublicConfig, UserResource } from '@atelier/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { showAlert, pushToast } from '../../components/overlays/overlay-store';
import { xsrfHeaders } from '../../lib/api-client';
import {
  createUploadQueue,
  hyphenateWhitespace,
  type UploadNotice,
  type UploadQueue,
  type UploadSource,
  type UploadSettings,
} from '../../lib/upload-queue';
import { configQuery, userQueryKey } from '../session/session-queries';
import { useFileActions } from './file-actions';
import { listingKey, type FileItem, type ItemPage } from './files-api';
import type { FileSource } from './file-source';
import { formatBytes } from './item-kind';
import { applyUploadedFile } from './listing-cache';
import { resolveUploadConflicts } from './upload-conflicts';

/** Turns a queue notice into the alert or toast of sections 5 and 8. */
export function showUploadNotice(notice: UploadNotice, t: TFunction) {
  switch (notice.kind) {
    case 'zero-byte':
      pushToast('danger', t('toaster.file_cant_be_uploaded', { name: notice.name }));
      return;
    case 'blacklisted':
      showAlert(
        t('popup_mimetypes_blacklist.title'),
        t('popup_mimetypes_blacklist.message', { type: notice.type }),
      );
      return;
    case 'over-upload-limit':
      showAlert(
        t('popup_upload_limit.title'),
        t('popup_upload_limit.message', { name: notice.name, size: formatBytes(notice.limit) }),
      );
      return;
    case 'upload-disabled':
      showAlert(t('upload_temporarily_disabled.title'), t('upload_temporarily_disabled.message'));
      return;
    case 'exceed-upload-limit':
      showAlert(t('exceed_upload_limit.title'), t('exceed_upload_limit.message'));
      return;
    case 'storage-limit':
      showAlert(t('popup_exceed_limit.title'), t('popup_exceed_limit.message'));
      return;
    case 'payload-too-large':
      showAlert(t('popup_payload_error.title'), t('popup_payload_error.message'));
      return;
    case 'server-message':
      showAlert(notice.message || t('popup_error.title'));
      return;
    case 'generic':
      showAlert(t('popup_error.title'), t('popup_error.message'));
  }
}

/** The limits the server checks, read from the cached config and user so the queue refuses first. */
export function uploadSettings(client: QueryClient | undefined) {
  const config = client?.getQueryData<PublicConfig>(configQuery.queryKey);
  const user = client?.getQueryData<UserResource | null>(userQueryKey);
  return {
    chunkSize: config?.chunkSize ?? 8 * 1024 * 1024,
    uploadLimit: config?.uploadLimit ?? 0,
    mimetypesBlacklist: config?.mimetypesBlacklist ?? [],
    subscriptionType: config?.subscriptionType ?? 'none',
    canUpload: user?.meta.restrictions.canUpload ?? false,
  };
}

/** `uploadSettings` once the config is read again from the server (an admin may have changed it since). */
export async function freshUploadSettings(client: QueryClient | undefined) {
  await client?.fetchQuery({ ...configQuery, staleTime: 0 });
  return uploadSettings(client);
}

// A queue outlives any one screen: an upload keeps going while the user browses elsewhere.
const queues = new Map<string, UploadQueue>();
let context: { queryClient: QueryClient; t: TFunction } | null = null;

/**
 * One queue per upload address and cache: the owner's, the team folders' (same address, own
 * listings), and one for each share a visitor uploads into.
 */
function queueFor(source: FileSource): UploadQueue {
  const key = JSON.stringify([source.upload.endpoint, source.keys.listings]);
  const known = queues.get(key);
  if (known) return known;
  // Inside a share the sharer's restrictions apply, and only the server knows them.
  const forSource = (settings: UploadSettings) =>
    source.kind === 'owner' ? settings : { ...settings, canUpload: true };
  const queue = createUploadQueue({
    endpoint: source.upload.endpoint,
    fetch: source.upload.fetch,
    ...(source.upload.delta && { delta: { endpoint: source.upload.delta } }),
    settings: () => forSource(uploadSettings(context?.queryClient)),
    refreshSettings: async () => forSource(await freshUploadSettings(context?.queryClient)),
    headers: xsrfHeaders,
    onNotice: (notice) => context && showUploadNotice(notice, context.t),
    onFileUploaded: (file) => {
      if (!context) return;
      applyUploadedFile(context.queryClient, source.keys.listings, source.normalise(file as FileItem));
    },
    onFolderUploaded: () => {
      void context?.queryClient.invalidateQueries({ queryKey: source.keys.listings });
      void context?.queryClient.invalidateQueries({ queryKey: source.keys.navigation });
    },
  });
  queues.set(key, queue);
  return queue;
}

/**
 * The upload queue of the screen's file source, bound to its query cache and translations. It does
 * not subscribe to progress (rows would re-render on every chunk); the panel reads that itself.
 */
export function useFileUploads() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  useEffect(() => {
    context = { queryClient, t };
  }, [queryClient, t]);
  return useUploadInto();
}

/**
 * The same queue for the rows of a listing (files dropped on a folder), left to the screen around
 * them to bind: a listing's rows then add no translation hook and no effect each to its first render.
 */
export function useUploadInto() {
  const queryClient = useQueryClient();
  const { source } = useFileActions();
  const uploads = queueFor(source);
  return {
    queue: uploads,
    /**
     * Queues files into a folder of the screen (null: its top), after asking what to do with each
     * name the folder holds already (as far as its listing is known here); nothing goes if the
     * person closes the question.
     */
    add: async (files: readonly (File | UploadSource)[], folderId: string | null) => {
      const names = files.flatMap((entry) => {
        const { file, path } = entry instanceof File ? { file: entry, path: undefined } : entry;
        // Files of a folder upload land in its folders, not beside the folder's names.
        return path && path.split('/').filter(Boolean).length > 1 ? [] : [hyphenateWhitespace(file.name)];
      });
      const conflicts = await resolveUploadConflicts(
        names,
        namesInFolder(queryClient, source.keys.listings, folderId),
      );
      if (conflicts) uploads.add(files, source.upload.parentId(folderId), conflicts);
    },
  };
}

/** The names the cached listings of a folder (null: the top) hold, in any order they were read. */
function namesInFolder(
  queryClient: QueryClient,
  listingsKey: readonly unknown[],
  folderId: string | null,
): Set<string> {
  const folderKey = listingKey(
    listingsKey,
    { kind: 'folder', id: folderId },
    { sort: 'name', direction: 'asc' },
  );
  const names = new Set<string>();
  for (const query of queryClient.getQueryCache().findAll({ queryKey: folderKey.slice(0, -2) })) {
    const data = query.state.data as { pages?: ItemPage[] } | undefined;
    for (const page of data?.pages ?? []) for (const item of page.data) names.add(item.attributes.name);
  }
  return names;
}
