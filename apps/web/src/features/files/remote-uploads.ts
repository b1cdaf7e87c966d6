import type { RealtimePayload, RemoteUploadAccepted } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { api } from '../../lib/api-client';
import { createStore, useStore } from '../../lib/create-store';
import { subscribeRealtime } from '../../lib/realtime';
import { useConfig } from '../session/session-queries';
import { teamsKeys } from '../teams/teams-api';
import { filesKeys, type FileItem } from './files-api';
import { applyUploadedFile } from './listing-cache';

export type RemoteProgress = RealtimePayload<'RemoteFile.Created'>['progress'];

interface RemoteUploadsState {
  /** Remote uploads this tab started or heard of, by id, until a moment after they finish. */
  uploads: Record<string, RemoteProgress>;
  /** Upload panels on screen; the app frame shows its own bar only while there is none. */
  panels: number;
}

const store = createStore<RemoteUploadsState>({ uploads: {}, panels: 0 });

/** How long a finished upload's full bar stays before it goes. */
const LINGER_MS = 2_000;

function setProgress(id: string, progress: RemoteProgress) {
  store.set((state) => ({ ...state, uploads: { ...state.uploads, [id]: progress } }));
  if (progress.processed < progress.total) return;
  setTimeout(() => {
    store.set((state) => {
      const { [id]: _finished, ...rest } = state.uploads;
      return { ...state, uploads: rest };
    });
  }, LINGER_MS);
}

/**
 * Asks the server to fetch `urls` into a folder; the bar starts at nothing processed. Without
 * realtime there is nothing to move the bar, so only the notification tells of the end.
 */
export async function startRemoteUpload(urls: string[], parentId: string | null, track: boolean) {
  const { data } = await api.post<RemoteUploadAccepted>(
    '/api/upload/remote',
    { urls, parent_id: parentId },
    // 401 here is the account's upload restriction (its message is shown), not a lost session.
    { handleUnauthorized: false },
  );
  // The first addresses may have been fetched before this answer arrived.
  if (track && !store.get().uploads[data.id])
    setProgress(data.id, { total: data.total, processed: 0, failed: 0 });
  return data;
}

/** Every remote upload under way, added up; null when there is none. */
export function useRemoteProgress(): RemoteProgress | null {
  const uploads = useStore(store, (state) => state.uploads);
  const all = Object.values(uploads);
  if (all.length === 0) return null;
  return all.reduce((sum, one) => ({
    total: sum.total + one.total,
    processed: sum.processed + one.processed,
    failed: sum.failed + one.failed,
  }));
}

/** Whether an upload panel is on screen (it shows the remote bar itself). */
export function usePanelShown(): boolean {
  return useStore(store, (state) => state.panels > 0);
}

/** Marks an upload panel on screen for as long as the calling component is mounted. */
export function useRegisterPanel() {
  useEffect(() => {
    store.set((state) => ({ ...state, panels: state.panels + 1 }));
    return () => store.set((state) => ({ ...state, panels: state.panels - 1 }));
  }, []);
}

/**
 * Follows the `RemoteFile.Created` events of the signed-in user: each stored file joins its
 * folder's listing at once, the bar moves, and the last address brings the finished toast.
 */
export function useRemoteUploadEvents() {
  const client = useQueryClient();
  const { t } = useTranslation();
  const realtimeOn = useConfig().broadcasting.driver !== 'null';
  useEffect(() => {
    if (!realtimeOn) return;
    return subscribeRealtime('RemoteFile.Created', ({ upload_id, file, progress }) => {
      if (file) {
        applyUploadedFile(client, filesKeys.listings, file as FileItem);
        // A team folder of the owner's shows the same folder through its own listings.
        void client.invalidateQueries({ queryKey: teamsKeys.listings('owner') });
      }
      setProgress(upload_id, progress);
      if (progress.processed < progress.total) return;
      if (progress.failed === 0) pushToast('success', t('toaster.remote_download_finished'));
      else pushToast('danger', t('toaster.remote_download_finished_failed', progress));
    });
  }, [client, t, realtimeOn]);
}
