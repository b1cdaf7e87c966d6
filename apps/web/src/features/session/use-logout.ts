import { LOGOUT_POPUP_DELAY_MS } from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api-client';
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
    const popupTimer = setTimeout(() => setLoggingOut(true), LOGOUT_POPUP_DELAY_MS);
    try {
      await api.post('/logout', undefined, { handleUnauthorized: false });
    } catch {
      showGenericError();
      return;
    } finally {
      clearTimeout(popupTimer);
      setLoggingOut(false);
    }
    await navigate(config.allowHomepage ? '/' : '/sign-in', { replace: true });
    // Everything but the instance config belonged to the signed-out user.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== configQuery.queryKey[0] });
    queryClient.setQueryData(userQueryKey, null);
  }, [queryClient, navigate, config.allowHomepage, showGenericError]);
}
