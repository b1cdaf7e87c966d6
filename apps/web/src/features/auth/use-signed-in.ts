import type { UserResource } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { homePathFor, safeRedirect, userQueryKey } from '../session/session-queries';

/** Where to go after signing in: the guarded page the visitor wanted, else their home. */
export function usePostSignInPath() {
  const [params] = useSearchParams();
  return useCallback(
    (user: UserResource['data']) => safeRedirect(params.get('redirect')) ?? homePathFor(user.attributes),
    [params],
  );
}

/** Stores the fresh session's user and moves on. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathFor = usePostSignInPath();
  return useCallback(
    async (resource: UserResource) => {
      queryClient.setQueryData(userQueryKey, resource);
      await navigate(pathFor(resource.data), { replace: true });
    },
    [queryClient, navigate, pathFor],
  );
}
