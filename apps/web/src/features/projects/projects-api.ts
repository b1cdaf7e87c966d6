import type {
  AddedProjectInputs,
  EffectiveScene,
  GalleryDateList,
  GalleryDay,
  ProjectAssetPayload,
  ProjectDocument,
  ProjectFileList,
  ProjectFileResource,
  ProjectList,
  ProjectRenderList,
  ProjectResource,
  ProjectSettings,
  ProjectSettingsKey,
  RenderCategory,
  RenderJobList,
  RenderJobResource,
  StudioFinish,
} from '@atelier/contracts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import { api } from '../../lib/api-client';
import { subscribeRealtime } from '../../lib/realtime';

export type {
  ProjectFileResource,
  ProjectResource,
  ProjectSettings,
  RenderCategory,
  RenderJobResource,
  StudioFinish,
};
export type AssetEvent = z.infer<typeof ProjectAssetPayload>;

export const projectKeys = {
  all: ['projects'] as const,
  list: (sort: string) => ['projects', 'list', sort] as const,
  project: (id: string) => ['projects', 'project', id] as const,
  files: (id: string, kind: 'input' | 'output', mimetype?: string) =>
    ['projects', 'files', id, kind, mimetype ?? 'any'] as const,
  scene: (id: string, category: string | undefined) =>
    ['projects', 'scene', id, category ?? 'default'] as const,
  gallery: (id: string, search: string) => ['projects', 'gallery', id, search] as const,
  galleryDay: (id: string, date: string, search: string) =>
    ['projects', 'gallery-day', id, date, search] as const,
  categories: ['projects', 'categories'] as const,
  finishes: ['projects', 'finishes'] as const,
  studio: ['projects', 'studio-defaults'] as const,
  progress: ['projects', 'progress'] as const,
};

export const fetchProjects = (sort: { sort: string; direction: string }) =>
  api.get<ProjectList>('/api/browse/projects/all', { query: { ...sort, per_page: 100 } });

/** A project with its newest renders (the browse call of one project). */
export const fetchProject = (id: string) =>
  api.get<ProjectRenderList>(`/api/browse/projects/${id}`, { query: { per_page: 100 } });

export const fetchProjectFiles = (id: string, kind: 'input' | 'output', mimetype?: 'png' | 'mp4', page = 1) =>
  api.get<ProjectFileList>(`/api/browse/projects/files/${id}`, {
    query: { type: kind, mimetype, page, per_page: 100 },
  });

export const createProject = (body: { project_name: string; description: string; user_id: string }) =>
  api.post<ProjectDocument>('/api/create-project', body);

export const updateProjectSetting = (
  projectId: string,
  userId: string,
  updateKey: ProjectSettingsKey,
  updateValue: unknown,
) =>
  api.post<{ data: ProjectSettings }>('/api/update-project-settings', {
    project_id: projectId,
    user_id: userId,
    updateKey,
    updateValue,
  });

export const updateStudioDefault = (updateKey: ProjectSettingsKey, updateValue: unknown) =>
  api.post<{ data: ProjectSettings }>('/api/studio-settings', { updateKey, updateValue });

/** Renders the project's models; `variants` names the colourways to render (all of them when absent). */
export const generateAssets = (projectId: string, categoryId: string, userId: string, variants?: string[]) =>
  api.post<RenderJobList>('/api/generateAssets', {
    project_id: projectId,
    category_id: categoryId,
    user_id: userId,
    variants,
  });

/** Renders again, with the same settings, the models whose newest outputs are of an older version. */
export const rerenderProject = (projectId: string, userId: string) =>
  api.post<RenderJobList>(`/api/projects/${projectId}/rerender`, { user_id: userId });

/** A copy is refused like an upload: its 401 means the account may not upload now, not a lost session. */
const COPY_OPTIONS = { handleUnauthorized: false };

/** Copies model files of the person's into the project (see AddFromFilesDialog). */
export const addProjectInputs = (projectId: string, fileIds: readonly string[]) =>
  api.post<AddedProjectInputs>(`/api/projects/${projectId}/inputs`, { items: fileIds }, COPY_OPTIONS);

/** A new project holding a copy of one model file, named after it. */
export const createProjectFromFile = (fileId: string) =>
  api.post<ProjectDocument>('/api/projects/from-file', { file_id: fileId }, COPY_OPTIONS);

/** Renders every model of a folder, into the project the folder is or a new one made for it. */
export const generateFolderAssets = (folderId: string, categoryId: string, userId: string) =>
  api.post<RenderJobList>('/api/file-generateAssets', {
    folder_id: folderId,
    category_id: categoryId,
    user_id: userId,
  });

export const fetchGalleryDates = (id: string, page: number, search: string) =>
  api.get<GalleryDateList>(`/api/browse/projects/gallery/${id}`, {
    query: { page, search: search || undefined },
  });

export const fetchGalleryDay = (id: string, date: string, search: string) =>
  api.get<GalleryDay>(`/api/browse/projects/gallery/${id}/data`, {
    query: { date, search: search || undefined },
  });

/** A project with its renders; `enabled` false waits (the all-projects view has no single project). */
export function useProject(projectId: string, enabled = true) {
  return useQuery({
    queryKey: projectKeys.project(projectId),
    queryFn: () => fetchProject(projectId),
    enabled,
  });
}

export function useProjectFiles(projectId: string, kind: 'input' | 'output', mimetype?: 'png' | 'mp4') {
  return useQuery({
    queryKey: projectKeys.files(projectId, kind, mimetype),
    queryFn: () => fetchProjectFiles(projectId, kind, mimetype),
  });
}

export function useCategories() {
  return useQuery({
    queryKey: projectKeys.categories,
    queryFn: () => api.get<{ data: RenderCategory[] }>('/api/projects/categories').then((b) => b.data),
    staleTime: Infinity,
  });
}

export function useFinishes() {
  return useQuery({
    queryKey: projectKeys.finishes,
    queryFn: () => api.get<{ data: StudioFinish[] }>('/api/projects/finishes').then((b) => b.data),
    staleTime: Infinity,
  });
}

export function useStudioDefaults() {
  return useQuery({
    queryKey: projectKeys.studio,
    queryFn: () => api.get<{ data: ProjectSettings }>('/api/studio-settings').then((b) => b.data),
  });
}

export function useEffectiveScene(projectId: string, categoryId: string | undefined) {
  return useQuery({
    queryKey: projectKeys.scene(projectId, categoryId),
    queryFn: () =>
      api
        .get<EffectiveScene>(`/api/projects/${projectId}/scene`, { query: { category_id: categoryId } })
        .then((b) => b.data),
    placeholderData: (previous) => previous,
  });
}

/** The live state of renders from project.asset events, by render (job) id. */
export type ProgressMap = Record<string, Pick<AssetEvent, 'status' | 'progress' | 'error'>>;

function applyEvent(client: QueryClient, event: AssetEvent) {
  client.setQueryData<ProgressMap>(projectKeys.progress, (map) => ({
    ...map,
    [event.job_id]: { status: event.status, progress: event.progress, error: event.error },
  }));
  // A finished render changes lists (statuses, outputs, the gallery): fetch them again.
  if (event.status === 'done' || event.status === 'failed')
    void client.invalidateQueries({
      queryKey: projectKeys.all,
      predicate: (q) => q.queryKey[1] !== 'progress',
    });
}

/** Keeps the progress map fed from the realtime connection while a studio screen is open. */
export function useRenderEvents() {
  const client = useQueryClient();
  useEffect(() => subscribeRealtime('project.asset', (event) => applyEvent(client, event)), [client]);
  return (
    useQuery<ProgressMap>({
      queryKey: projectKeys.progress,
      queryFn: () => ({}),
      staleTime: Infinity,
      gcTime: Infinity,
    }).data ?? {}
  );
}

/**
 * A render as the latest event tells it, else as the server last listed it. An ended render is
 * as the server says: events go unheard while no studio screen is open, so the map may still
 * hold its progress from before.
 */
export function liveRender(render: RenderJobResource, progress: ProgressMap) {
  const ended = ['done', 'failed'].includes(render.attributes.status);
  const live = ended ? undefined : progress[render.id];
  return {
    status: live?.status ?? render.attributes.status,
    progress: live?.progress ?? render.attributes.progress,
    error: live?.error ?? render.attributes.error,
  };
}
