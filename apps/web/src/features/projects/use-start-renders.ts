import type { RenderJobList } from '@atelier/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { ApiError } from '../../lib/api-client';
import { projectKeys } from './projects-api';

/**
 * A mutation that queues renders (a project's generation, a re-render of its changed models): it says
 * how many started, refreshes the projects (not their progress, which polls on its own), and shows a
 * refusal's reason; a lost session or a forbidden project is left to the session's own handling.
 */
export function useStartRenders(start: () => Promise<RenderJobList>) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const showError = useGenericError();
  return useMutation({
    mutationFn: start,
    onSuccess: (answer) => {
      pushToast('success', t('projects.generate_started', { count: answer.data.length }));
      void client.invalidateQueries({
        queryKey: projectKeys.all,
        predicate: (q) => q.queryKey[1] !== 'progress',
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) pushToast('danger', error.message);
      else if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) showError();
    },
  });
}
