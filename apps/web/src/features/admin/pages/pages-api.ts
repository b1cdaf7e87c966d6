import type { CreatePageBody, PageList, PagePreview, PageResource, UpdatePageBody } from '@atelier/contracts';
import { api, apiRequest } from '../../../lib/api-client';

export type Page = PageResource['data'];

export const pageKeys = {
  all: ['admin', 'pages'] as const,
  /** One page as its editor opens it. */
  page: (slug: string) => ['admin', 'pages', slug] as const,
  /** The public page's cache, which an edit refreshes too. */
  public: (slug: string) => ['page', slug] as const,
};

export const fetchPages = async () => (await api.get<PageList>('/api/admin/pages')).data;

/** The public address, which also shows a hidden page to an admin. */
export const fetchPage = async (slug: string) =>
  (await api.get<PageResource>(`/api/pages/${encodeURIComponent(slug)}`)).data;

export const createPage = async (body: CreatePageBody) =>
  (await api.post<PageResource>('/api/admin/pages', body)).data;

export const updatePage = async (slug: string, body: UpdatePageBody) =>
  (
    await apiRequest<PageResource>(`/api/admin/pages/${encodeURIComponent(slug)}`, {
      method: 'PATCH',
      body,
    })
  ).data;

export const previewMarkdown = async (content: string, signal?: AbortSignal) =>
  (await apiRequest<PagePreview>('/api/admin/pages/preview', { method: 'POST', body: { content }, signal }))
    .data.html;
