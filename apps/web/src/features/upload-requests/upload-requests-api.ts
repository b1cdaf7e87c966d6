import type {
  CreateUploadRequestBody,
  UploadRequestDocument,
  UploadRequestList,
  UploadRequestResource,
} from '@atelier/contracts';
import { api, apiRequest } from '../../lib/api-client';
import { anonymous } from '../sharing/sharing-api';

export type UploadRequest = UploadRequestResource;

export const uploadRequestsKeys = {
  /** The owner's list. */
  owned: ['upload-requests', 'owned'] as const,
  /** Everything the outsider's page of one request has loaded. */
  visit: (token: string) => ['upload-requests', 'visit', token] as const,
  detail: (token: string) => ['upload-requests', 'visit', token, 'detail'] as const,
};

/** Why a request takes nothing more: closed (by either side) or out of time; null while it is open. */
export type ClosedReason = 'filled' | 'expired';

export function closedReason(request: UploadRequest, now = Date.now()): ClosedReason | null {
  const { status, expires_at } = request.attributes;
  if (status === 'filled') return 'filled';
  // The page may stay open past the end: the clock says so before the server is asked again.
  if (status === 'expired' || Date.parse(expires_at) <= now) return 'expired';
  return null;
}

const close = (token: string, options?: { handleUnauthorized: false }) =>
  apiRequest(`/api/file-request/${encodeURIComponent(token)}`, { ...options, method: 'DELETE' });

/** The owner's calls (section "Upload requests" of the API addendum). */
export const ownerRequestsApi = {
  create: (body: CreateUploadRequestBody) =>
    api.post<UploadRequestDocument>('/api/file-request', body).then((answer) => answer.data),
  list: (signal?: AbortSignal) =>
    api.get<UploadRequestList>('/api/file-request', { signal }).then((answer) => answer.data),
  close: (token: string) => close(token),
};

/** The outsider's calls: no account, so a 401 says nothing about a session. */
export const visitRequestApi = {
  detail: (token: string, signal?: AbortSignal) =>
    api
      .get<UploadRequestDocument>(`/api/file-request/${encodeURIComponent(token)}`, { ...anonymous, signal })
      .then((answer) => answer.data),
  /** "I'm done": the request takes nothing more. */
  finish: (token: string) => close(token, anonymous),
};
