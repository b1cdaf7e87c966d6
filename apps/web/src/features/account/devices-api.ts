import type { AppPasswordList, CreatedAppPassword, SessionList } from '@atelier/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, apiRequest } from '../../lib/api-client';

export const devicesQuery = queryOptions({
  queryKey: ['user-sessions'],
  queryFn: () => api.get<SessionList>('/api/user/sessions'),
});

export const appPasswordsQuery = queryOptions({
  queryKey: ['app-passwords'],
  queryFn: () => api.get<AppPasswordList>('/api/user/app-passwords'),
});

/** Signs another device out; its open tabs are sent to sign in at their next call. */
export function endDevice(id: string): Promise<void> {
  return apiRequest(`/api/user/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function createAppPassword(name: string): Promise<CreatedAppPassword> {
  return api.post<CreatedAppPassword>('/api/user/app-passwords', { name });
}

export function revokeAppPassword(id: string): Promise<void> {
  return apiRequest(`/api/user/app-passwords/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
