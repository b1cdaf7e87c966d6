import type { LoginFlowDocument } from '@atelier/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, apiRequest } from '../../lib/api-client';

const flowPath = (token: string) => `/api/login-flows/${encodeURIComponent(token)}`;

/** The client waiting on a login flow; never refetched by itself, since granting ends it. */
export const loginFlowQuery = (token: string) =>
  queryOptions({
    queryKey: ['login-flow', token],
    queryFn: ({ signal }) => api.get<LoginFlowDocument>(flowPath(token), { signal }),
    retry: false,
    staleTime: Infinity,
  });

export function grantLoginFlow(token: string): Promise<void> {
  return apiRequest(`${flowPath(token)}/grant`, { method: 'POST' });
}

export function refuseLoginFlow(token: string): Promise<void> {
  return apiRequest(`${flowPath(token)}/refuse`, { method: 'POST' });
}
