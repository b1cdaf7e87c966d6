import { LOGOUT_POPUP_DELAY_MS } from '@atelier/contracts/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api-client';
import { withDelayedIndicator } from '../../lib/delayed-indicator';
import { setLoggingOut } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { configQuery, useConfig, userQueryKey } from './session-queries';

/**
 * Signs out. The "Logging Out" popup only shows when the call takes longer than
 * LOGOUT_POPUP_DELAY_MS, so a quick logout never flashes it.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const config = useConfig();
  const showGenericError = useGenericError();

  return useCallback(async () => {
    try {
      await withDelayedIndicator(
        () => api.post('/logout', undefined, { handleUnauthorized: false }),
        setLoggingOut,
        LOGOUT_POPUP_DELAY_MS,
      );
    } catch {
      showGenericError();
      return;
    }
    await navigate(config.allowHomepage ? '/' : '/sign-in', { replace: true });
    // Everything but the instance config belonged to the signed-out user.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== configQuery.queryKey[0] });
    queryClient.setQueryData(userQueryKey, null);
  }, [queryClient, navigate, config.allowHomepage, showGenericError]);
}
