import type { StatusCheck } from '@atelier/contracts';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { Button } from '../../components/ui/button';
import { api, ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useSetupTokenContext } from './setup-token';
import { StepActions, StepHeader } from './step-header';
import { wizardPath } from './wizard-steps';

export function StatusCheckPage() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['setup', 'status-check'],
    queryFn: () => api.get<StatusCheck>('/api/setup/status-check'),
    staleTime: 0,
  });
  const allOk = query.data?.checks.every((check) => check.ok) ?? false;
  const { rejectToken } = useSetupTokenContext();
  const tokenRefused = query.error instanceof ApiError && query.error.status === 403;
  useEffect(() => {
    if (tokenRefused) rejectToken();
  }, [tokenRefused, rejectToken]);

  return (
    <>
      <StepHeader title={t('setup.status.title')} lead={t('setup.status.lead')} />
      {query.isPending ? (
        <PageLoader />
      ) : query.isError ? (
        <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 text-sm text-danger">
          {t('setup.status.failed')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-line overflow-hidden rounded-2xl border border-line">
          {query.data.checks.map((check) => (
            <li key={check.name} className="flex items-start gap-3 bg-surface px-4 py-3.5">
              {check.ok ? (
                <CircleCheck
                  className="mt-0.5 size-5 shrink-0 text-success"
                  aria-label={t('setup.status.ok')}
                />
              ) : (
                <CircleX
                  className="mt-0.5 size-5 shrink-0 text-danger"
                  aria-label={t('setup.status.failing')}
                />
              )}
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium">{t(check.name)}</p>
                <p className={cn('text-xs break-words', check.ok ? 'text-muted' : 'text-danger')}>
                  {check.detail}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {query.isSuccess && !allOk && <p className="mt-4 text-sm text-muted">{t('setup.status.fix_hint')}</p>}
      <StepActions>
        <Button variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
          <RefreshCw className="size-4" aria-hidden />
          {t('setup.status.recheck')}
        </Button>
        {allOk ? (
          <Button asChild>
            <Link to={wizardPath('purchase-code')}>{t('setup.continue')}</Link>
          </Button>
        ) : (
          <Button disabled>{t('setup.continue')}</Button>
        )}
      </StepActions>
    </>
  );
}
