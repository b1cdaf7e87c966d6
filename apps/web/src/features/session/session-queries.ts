import { SIGNED_IN_COOKIE, type PublicConfig, type UserResource } from '@atelier/contracts';
import { queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { ApiError, api, readCookie } from '../../lib/api-client';

export type User = UserResource['data'];

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: () => api.get<PublicConfig>('/api/config'),
  staleTime: Infinity,
});

/** The instance configuration; loaded before the first render, so it is always there. */
export function useConfig(): PublicConfig {
  return useSuspenseQuery(configQuery).data;
}

export const userQueryKey = ['user'] as const;

/**
 * The signed-in user's resource, or null for an anonymous visitor: asked only of a browser the server
 * marked as holding a session (SIGNED_IN_COOKIE), so a public page sends no request bound to fail.
 */
export const userQuery = queryOptions({
  queryKey: userQueryKey,
  queryFn: async (): Promise<UserResource | null> => {
    if (!readCookie(SIGNED_IN_COOKIE)) return null;
    try {
      return await api.get<UserResource>('/api/user', { handleUnauthorized: false });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export function useSession() {
  const config = useConfig();
  const installed = config.installation === 'installation-done';
  const query = useQuery({ ...userQuery, enabled: installed });
  return {
    resource: query.data ?? null,
    user: query.data?.data ?? null,
    /** True until we know whether someone is signed in. */
    pending: installed && query.isPending,
  };
}

/** Where a signed-in user lands by default. */
export function homePathFor(user: Pick<User['attributes'], 'role'>) {
  return user.role === 'admin' ? '/admin/dashboard' : '/projects';
}

/** Only same-site paths are honoured as a post-sign-in destination. */
export function safeRedirect(target: string | null): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  return target;
}
