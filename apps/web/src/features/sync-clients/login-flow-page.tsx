import type { LoginFlowDocument } from '@atelier/contracts';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, MonitorSmartphone, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { StatusPanel } from '../auth/status-panel';
import { useConfig, useSession } from '../session/session-queries';
import { useLogout } from '../session/use-logout';
import { grantLoginFlow, loginFlowQuery, refuseLoginFlow } from './sync-clients-api';

/**
 * /login/v2/flow/{token}: the page a sync client (the Nextcloud apps, Login Flow v2) opens in the
 * browser. The person signs in through the app's own sign-in (second factor included) and comes
 * back here, sees which client asks, and grants or refuses it; the client then finishes by itself.
 */
export function LoginFlowPage() {
  const { token = '' } = useParams();
  const { user, pending } = useSession();
  const location = useLocation();
  if (pending) return <Loading />;
  if (!user) return <Navigate to={`/sign-in?redirect=${encodeURIComponent(location.pathname)}`} replace />;
  return <FlowView token={token} email={user.attributes.email} />;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-64 place-items-center text-muted">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

type Outcome = 'granted' | 'refused';

function FlowView({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation();
  const flow = useQuery(loginFlowQuery(token));
  const [outcome, setOutcome] = useState<{ kind: Outcome; client: string } | null>(null);

  if (outcome?.kind === 'granted')
    return (
      <StatusPanel
        icon={CircleCheck}
        title={t('sync_clients.flow.granted_title', { client: outcome.client })}
        body={t('sync_clients.flow.granted_body')}
      >
        <Button asChild variant="secondary">
          <Link to="/user/profile">{t('sync_clients.flow.see_app_passwords')}</Link>
        </Button>
      </StatusPanel>
    );
  if (outcome?.kind === 'refused')
    return (
      <StatusPanel
        icon={CircleX}
        title={t('sync_clients.flow.refused_title')}
        body={t('sync_clients.flow.refused_body', { client: outcome.client })}
      />
    );
  if (flow.isPending) return <Loading />;
  if (flow.isError) {
    const missing = flow.error instanceof ApiError && flow.error.status === 404;
    return (
      <StatusPanel
        icon={missing ? SearchX : CircleX}
        title={t(missing ? 'sync_clients.flow.missing_title' : 'sync_clients.flow.failed_title')}
        body={t(missing ? 'sync_clients.flow.missing_body' : 'sync_clients.flow.failed_body')}
      >
        {!missing && (
          <Button variant="secondary" onClick={() => void flow.refetch()}>
            {t('sharing.retry')}
          </Button>
        )}
      </StatusPanel>
    );
  }
  return (
    <Request
      token={token}
      email={email}
      flow={flow.data.data}
      onDone={(kind) => setOutcome({ kind, client: flow.data.data.client })}
    />
  );
}

function Request({
  token,
  email,
  flow,
  onDone,
}: {
  token: string;
  email: string;
  flow: LoginFlowDocument['data'];
  onDone: (outcome: Outcome) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const showGenericError = useGenericError();
  const [answering, setAnswering] = useState<Outcome | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const answer = async (kind: Outcome) => {
    setAnswering(kind);
    setRefusal(null);
    try {
      await (kind === 'granted' ? grantLoginFlow(token) : refuseLoginFlow(token));
      onDone(kind);
    } catch (error) {
      // The app password limit is the person's to fix; anything else is a failure to retry.
      if (error instanceof ApiError && error.status === 422) setRefusal(error.message);
      else showGenericError();
    } finally {
      setAnswering(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="grid size-16 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
          <MonitorSmartphone className="size-8" aria-hidden />
        </span>
        <h1 className="font-display text-3xl font-semibold tracking-tight text-balance">
          {t('sync_clients.flow.title', { client: flow.client })}
        </h1>
        <p className="max-w-sm text-sm leading-relaxed text-muted">
          {t('sync_clients.flow.lead', { client: flow.client, app: config.app.name })}
        </p>
      </div>
      <Card className="flex flex-col gap-3 p-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted">{t('sync_clients.flow.client')}</dt>
          <dd className="min-w-0 font-medium break-words text-ink">{flow.client}</dd>
          <dt className="text-muted">{t('sync_clients.flow.user_agent')}</dt>
          <dd className="min-w-0 font-mono text-xs break-all text-muted">
            {flow.user_agent || t('sync_clients.flow.no_user_agent')}
          </dd>
          <dt className="text-muted">{t('sync_clients.flow.account')}</dt>
          <dd className="min-w-0 break-all text-ink">{email}</dd>
        </dl>
        <p className="text-xs leading-relaxed text-muted">{t('sync_clients.flow.hint')}</p>
      </Card>
      {refusal && (
        <p role="alert" className="text-sm text-danger">
          {refusal}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
        <SwitchAccount />
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button
            variant="secondary"
            loading={answering === 'refused'}
            disabled={answering !== null}
            onClick={() => void answer('refused')}
          >
            {t('sync_clients.flow.refuse')}
          </Button>
          <Button
            loading={answering === 'granted'}
            disabled={answering !== null}
            onClick={() => void answer('granted')}
          >
            {t('sync_clients.flow.grant')}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Not the account the client should sync: sign out and come back here as another. */
function SwitchAccount() {
  const { t } = useTranslation();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={async () => {
        await logout();
        await navigate(`/sign-in?redirect=${encodeURIComponent(location.pathname)}`, { replace: true });
      }}
    >
      {t('sync_clients.flow.switch_account')}
    </Button>
  );
}
