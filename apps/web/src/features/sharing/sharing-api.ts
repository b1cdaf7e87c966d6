import type {
  CreateShareBody,
  ItemDocument,
  ItemShare,
  PublicShareDocument,
  ShareDocument,
  ShareResource,
  UpdateShareBody,
} from '@atelier/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export type Share = ShareResource;
export type PublicShare = PublicShareDocument['data'];

export const sharingKeys = {
  /** The owner's view of one link (with its counters). */
  owned: (token: string) => ['sharing', 'owned', token] as const,
  /** Everything a visitor of one share page has loaded. */
  visit: (token: string) => ['sharing', 'visit', token] as const,
  detail: (token: string) => ['sharing', 'visit', token, 'detail'] as const,
  file: (token: string) => ['sharing', 'visit', token, 'file'] as const,
};

/** The link as listings carry it, from the owner's full view of it. */
export function itemShareOf(share: Share): ItemShare {
  const { token, permission, expire_in } = share.attributes;
  return { token, permission, protected: share.attributes.protected, expire_in };
}

/** Whether the visitor still has to give the share's password (the detail names the item only after). */
export function isLocked(share: PublicShare): boolean {
  return share.attributes.protected && share.attributes.item_id === undefined;
}

/** The password gate of a protected product page, which comes back to the page once opened. */
export const productGatePath = (token: string) => `/share/${token}/authenticate?next=product`;

/** The owner's calls (section "Sharing" of the API addendum); anyone else gets 404 for them. */
export const sharesApi = {
  create: (body: CreateShareBody) =>
    api.post<ShareDocument>('/api/share', body).then((answer) => answer.data),
  get: (token: string, signal?: AbortSignal) =>
    api.get<ShareDocument>(`/api/share/${token}`, { signal }).then((answer) => answer.data),
  update: (token: string, body: UpdateShareBody) =>
    api
      .post<ShareDocument>(`/api/share/${token}`, { ...body, _method: 'patch' })
      .then((answer) => answer.data),
  email: (token: string, emails: readonly string[]) => api.post(`/api/share/${token}/email`, { emails }),
  revoke: (tokens: readonly string[]) => api.post('/api/share/revoke', { tokens, _method: 'delete' }),
};

/** A 401 on a share page asks for the share's password; it says nothing about an account session. */
export const anonymous = { handleUnauthorized: false } as const;

/** The visitor's calls of a share page. */
export const visitApi = {
  detail: (token: string, signal?: AbortSignal) =>
    api
      .get<PublicShareDocument>(`/api/sharing/${token}`, { ...anonymous, signal })
      .then((answer) => answer.data),
  authenticate: (token: string, password: string) =>
    api.post(`/api/sharing/authenticate/${token}`, { password }, anonymous),
  file: (token: string, signal?: AbortSignal) =>
    api
      .get<ItemDocument>(`/api/sharing/file/${token}`, { ...anonymous, signal })
      .then((answer) => answer.data),
};

/** The share's detail as a visitor reads it: it decides which of the share's pages shows what. */
export const shareDetailQuery = (token: string) =>
  queryOptions({
    queryKey: sharingKeys.detail(token),
    queryFn: ({ signal }) => visitApi.detail(token, signal),
  });
