import { isModelFileName } from '@atelier/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { showAlert } from '../../components/overlays/overlay-store';
import { createUploadQueue, useUploadQueue, type UploadQueue } from '../../lib/upload-queue';
import { xsrfHeaders } from '../../lib/api-client';
import { freshUploadSettings, showUploadNotice, uploadSettings } from '../files/upload-service';
import { projectKeys } from './projects-api';

// One queue per project, kept while the tab lives: an upload goes on while the user looks elsewhere.
const queues = new Map<string, UploadQueue>();
let context: { client: QueryClient; t: TFunction } | null = null;

function refreshProject(client: QueryClient, projectId: string) {
  void client.invalidateQueries({ queryKey: projectKeys.files(projectId, 'input') });
  void client.invalidateQueries({ queryKey: projectKeys.project(projectId) });
}

/**
 * The project form is the shared chunk form plus project_id, sent first so the server checks the
 * project before any byte; after every chunk's answer `afterChunk` runs (the input list reloads).
 */
export function projectChunkFetch(
  projectId: string,
  afterChunk: () => void,
  send: typeof fetch = (...args) => fetch(...args),
): typeof fetch {
  return async (input, init) => {
    const form = new FormData();
    form.append('project_id', projectId);
    for (const [key, value] of (init?.body as FormData).entries()) form.append(key, value);
    const response = await send(input, { ...init, body: form });
    afterChunk();
    return response;
  };
}

function queueFor(projectId: string): UploadQueue {
  let queue = queues.get(projectId);
  if (queue) return queue;
  queue = createUploadQueue({
    endpoint: '/api/projects/upload/chunks',
    settings: () => uploadSettings(context?.client),
    refreshSettings: () => freshUploadSettings(context?.client),
    headers: xsrfHeaders,
    fetch: projectChunkFetch(projectId, () => context && refreshProject(context.client, projectId)),
    onNotice: (notice) => context && showUploadNotice(notice, context.t),
    onFileUploaded: () => context && refreshProject(context.client, projectId),
  });
  queues.set(projectId, queue);
  return queue;
}

/** The upload queue of one project, and `add` that keeps out files the render engine cannot read. */
export function useProjectUploads(projectId: string) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const queue = queueFor(projectId);
  useEffect(() => {
    context = { client, t };
  }, [client, t]);
  const state = useUploadQueue(queue);
  const add = (files: File[]) => {
    const refused = files.filter((file) => !isModelFileName(file.name));
    if (refused.length > 0) showAlert(t('projects.upload_refused_title'), t('errors.project_input_type'));
    queue.add(
      files.filter((file) => isModelFileName(file.name)),
      null,
    );
  };
  return { state, add, cancel: queue.cancel };
}
