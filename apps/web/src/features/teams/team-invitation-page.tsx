import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, FolderOpen, MailQuestion, SearchX, TimerOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Avatar } from '../../components/avatar';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { StatusPanel } from '../auth/status-panel';
import { isRefusal, useAnswerInvitation } from '../notifications/notification-queries';
import { useSession } from '../session/session-queries';
import { useLogout } from '../session/use-logout';
import { PermissionChip, personOf } from './team-people';
import { teamsPath } from './team-source';
import { teamsApi, teamsKeys, type Invitation } from './teams-api';

/**
 * /team-folder-invitation/{id}: who invites the user to which team folder, with Accept and
 * Decline. Answering needs the invited address signed in, so a signed-out visitor signs in first
 * and comes back here. The e-mail's link carries a token that proves the address (an account made
 * after the invitation needs it); it stays in the address through sign-in and goes with each call.
 */
export function TeamInvitationPage() {
  const { id = '' } = useParams();
  const { user, pending } = useSession();
  const location = useLocation();
  const [search] = useSearchParams();
  if (pending) return <Loading />;
  if (!user)
    return (
      <Navigate to={`/sign-in?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />
    );
  return <InvitationView id={id} token={search.get('token')} email={user.attributes.email} />;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-64 place-items-center text-muted">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

function InvitationView({ id, token, email }: { id: string; token: string | null; email: string }) {
  const { t } = useTranslation();
  const invitation = useQuery({
    queryKey: teamsKeys.invitation(id),
    queryFn: ({ signal }) => teamsApi.invitation(id, token, signal),
  });

  if (invitation.isPending) return <Loading />;
  if (invitation.isError) {
    const status = invitation.error instanceof ApiError ? invitation.error.status : 0;
    if (status === 403) return <OtherAddress email={email} />;
    if (status === 404)
      return (
        <StatusPanel
          icon={SearchX}
          title={t('teams.invitation.missing_title')}
          body={t('teams.invitation.missing_body')}
        >
          <Button asChild variant="secondary">
            <Link to={teamsPath.member}>{t('teams.open_shared_with_me')}</Link>
          </Button>
        </StatusPanel>
      );
    return (
      <StatusPanel
        icon={CircleX}
        title={t('teams.invitation.failed_title')}
        body={t('sharing.visit_failed_hint')}
      >
        <Button variant="secondary" onClick={() => void invitation.refetch()}>
          {t('sharing.retry')}
        </Button>
      </StatusPanel>
    );
  }

  const { attributes } = invitation.data;
  // The inviter may look at what they sent; only the invited address answers.
  const invitee = attributes.email.toLowerCase() === email.toLowerCase();
  if (attributes.status === 'pending' && invitee)
    return <Answer invitation={invitation.data} token={token} />;
  return <Outcome invitation={invitation.data} invitee={invitee} />;
}

function Answer({ invitation, token }: { invitation: Invitation; token: string | null }) {
  const { t } = useTranslation();
  const answer = useAnswerInvitation();
  const showGenericError = useGenericError();
  const [answering, setAnswering] = useState<'accept' | 'decline' | null>(null);
  const { attributes } = invitation;

  const respond = (accept: boolean) => {
    setAnswering(accept ? 'accept' : 'decline');
    answer.mutate(
      { invitationId: invitation.id, accept, token },
      {
        onSettled: () => setAnswering(null),
        onError: (error) => !isRefusal(error) && showGenericError(),
      },
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col items-center gap-4 text-center">
        <Avatar person={personOf(attributes.inviter)} size={64} className="shadow-soft" />
        <h1 className="font-display text-3xl font-semibold tracking-tight text-balance">
          {t('teams.invitation.title', { folder: attributes.folder_name })}
        </h1>
        <p className="max-w-sm text-sm leading-relaxed text-muted">
          {t('teams.invitation.lead', { inviter: attributes.inviter.name, folder: attributes.folder_name })}
        </p>
      </div>
      <Card className="flex flex-col gap-3 p-4">
        <div className="flex items-center gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
            <FolderOpen className="size-5" aria-hidden />
          </span>
          <p className="min-w-0 flex-1 truncate font-medium text-ink">{attributes.folder_name}</p>
          <PermissionChip permission={attributes.permission} />
        </div>
        <p className="text-xs leading-relaxed text-muted">
          {t(`teams.permission_hint.${attributes.permission}`)}
        </p>
      </Card>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          variant="secondary"
          loading={answering === 'decline'}
          disabled={answering !== null}
          onClick={() => respond(false)}
        >
          {t('notifications.decline')}
        </Button>
        <Button loading={answering === 'accept'} disabled={answering !== null} onClick={() => respond(true)}>
          {t('teams.invitation.accept')}
        </Button>
      </div>
    </div>
  );
}

const STATUS_ICONS = { pending: MailQuestion, accepted: CircleCheck, rejected: CircleX, expired: TimerOff };

/** An answered or lapsed invitation, or any invitation as its sender sees it. */
function Outcome({ invitation, invitee }: { invitation: Invitation; invitee: boolean }) {
  const { t } = useTranslation();
  const { status, folder_name: folder, folder_id: folderId, inviter, email } = invitation.attributes;
  // Once accepted, the team folder itself opens (inside the side's list); before that, the list.
  const side = invitee ? teamsPath.member : teamsPath.owner;
  const opens = status === 'accepted' ? `${side}/${folderId}` : side;
  const key = `teams.invitation.${invitee ? 'invitee' : 'inviter'}.${status}`;
  const vars = { folder, inviter: inviter.name, email };
  return (
    <StatusPanel icon={STATUS_ICONS[status]} title={t(`${key}.title`, vars)} body={t(`${key}.body`, vars)}>
      <Button asChild variant={invitee && status === 'accepted' ? 'primary' : 'secondary'}>
        <Link to={opens}>{invitee ? t('teams.open_shared_with_me') : t('teams.open_team_folders')}</Link>
      </Button>
    </StatusPanel>
  );
}

/** Signed in with another address than the invited one (403): say so, and offer to switch. */
function OtherAddress({ email }: { email: string }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <StatusPanel
      icon={MailQuestion}
      title={t('teams.invitation.other_address_title')}
      body={t('teams.invitation.other_address_body', { email })}
    >
      <Button
        onClick={async () => {
          await logout();
          await navigate(`/sign-in?redirect=${encodeURIComponent(location.pathname + location.search)}`, {
            replace: true,
          });
        }}
      >
        {t('teams.invitation.switch_account')}
      </Button>
      <Button asChild variant="secondary">
        <Link to="/platform/files">{t('teams.invitation.my_files')}</Link>
      </Button>
    </StatusPanel>
  );
}
