import type { TeamInvitationInput, TeamInvitationSummary, UpdateTeamFolderBody } from '@atelier/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Clock, LogOut, Mail, RotateCw, Unlink, UserMinus } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { Button } from '../../components/ui/button';
import { Modal, ModalActions } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useSession } from '../session/session-queries';
import { InviteFields, PermissionSelect } from './invite-fields';
import { PermissionChip, personOf } from './team-people';
import { useTeamExit } from './team-exit';
import { teamChanged, teamQuery, teamsApi, teamsKeys, type Team, type TeamSide } from './teams-api';

/**
 * Who is in a team: the owner, the members with their permission, and (for the owner) the
 * invitations not yet accepted. The owner changes permissions, removes members, invites and
 * dissolves the team; a member can leave it.
 */
export function TeamMembersDialog({
  side,
  folderId,
  onClose,
}: {
  side: TeamSide;
  /** Any folder of the team (the team folder itself from the list). */
  folderId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const team = useQuery(teamQuery(side, folderId));

  let body: ReactNode;
  if (team.isPending)
    body = (
      <div className="grid h-48 place-items-center text-muted">
        <Spinner label={t('common.loading')} />
      </div>
    );
  else if (team.isError)
    body = (
      <div className="mt-5 flex flex-col items-start gap-3">
        <p role="alert" className="text-sm text-danger">
          {t('teams.members_failed')}
        </p>
        <Button variant="secondary" onClick={() => void team.refetch()}>
          {t('sharing.retry')}
        </Button>
      </div>
    );
  else body = <Members side={side} folderId={folderId} team={team.data} onClose={onClose} />;

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={team.data ? t('teams.members_title', { name: team.data.name }) : t('teams.members')}
      description={
        side === 'owner'
          ? t('teams.members_lead_owner')
          : team.data && t('teams.members_lead_member', { name: team.data.owner.name })
      }
      className="max-w-xl"
      sheet
    >
      {body}
    </Modal>
  );
}

function Members({
  side,
  folderId,
  team,
  onClose,
}: {
  side: TeamSide;
  folderId: string;
  team: Team;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const exit = useTeamExit(side);
  const owner = side === 'owner';
  const update = useTeamUpdate(folderId, team.id);
  const showGenericError = useGenericError();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [inviteError, setInviteError] = useState<string | undefined>();
  const headings = useId();
  const open = team.invitations.filter((invitation) => invitation.status !== 'accepted');
  const pending = open.filter((invitation) => invitation.status === 'pending');

  /** One change at a time per row; its refusal shows the generic alert. */
  async function change(rowId: string, body: UpdateTeamFolderBody) {
    setBusyId(rowId);
    try {
      await update.mutateAsync(body);
    } catch {
      showGenericError();
    } finally {
      setBusyId(null);
    }
  }

  async function invite(invitation: TeamInvitationInput) {
    setInviteError(undefined);
    try {
      await update.mutateAsync({ invitations: [invitation] });
      pushToast('success', t('teams.invited', { email: invitation.email }));
      return true;
    } catch (error) {
      // The member limit (or a taken address) comes back on the field; anything else is the generic alert.
      if (error instanceof ApiError && error.status === 422)
        setInviteError(t(error.fieldError('invitations') ?? error.message));
      else showGenericError();
      return false;
    }
  }

  return (
    <div className="mt-5 flex flex-col gap-6">
      <section aria-labelledby={`${headings}-people`} className="flex flex-col gap-2">
        <h3 id={`${headings}-people`} className={sectionTitle}>
          {t('teams.people_count', { count: team.members.length + 1 })}
        </h3>
        <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line">
          <PersonRow
            person={personOf(team.owner)}
            name={team.owner.name}
            detail={t('teams.owner')}
            you={team.owner.id === user?.id}
          />
          {team.members.map((member) => (
            <PersonRow
              key={member.id}
              person={personOf(member)}
              name={member.name}
              detail={member.email}
              you={member.id === user?.id}
            >
              {owner ? (
                <>
                  <PermissionSelect
                    value={member.permission}
                    label={t('teams.permission_of', { name: member.name })}
                    disabled={busyId === member.id}
                    onChange={(permission) =>
                      void change(member.id, { members: [{ id: member.id, permission }] })
                    }
                  />
                  <button
                    type="button"
                    disabled={busyId === member.id}
                    onClick={() => void change(member.id, { remove_members: [member.id] })}
                    aria-label={t('teams.remove_member', { name: member.name })}
                    title={t('teams.remove_member', { name: member.name })}
                    className={iconButton}
                  >
                    {busyId === member.id ? (
                      <Spinner className="size-4" />
                    ) : (
                      <UserMinus className="size-4" aria-hidden />
                    )}
                  </button>
                </>
              ) : (
                <PermissionChip permission={member.permission} />
              )}
            </PersonRow>
          ))}
        </ul>
        {owner && team.members.length === 0 && <p className="text-sm text-muted">{t('teams.no_members')}</p>}
      </section>

      {owner && open.length > 0 && (
        <section aria-labelledby={`${headings}-invitations`} className="flex flex-col gap-2">
          <h3 id={`${headings}-invitations`} className={sectionTitle}>
            {t('teams.invitations_count', { count: open.length })}
          </h3>
          <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line">
            {open.map((invitation) => (
              <InvitationRow
                key={invitation.id}
                invitation={invitation}
                busy={busyId === invitation.id}
                onInviteAgain={() =>
                  void change(invitation.id, {
                    invitations: [{ email: invitation.email, permission: invitation.permission }],
                  })
                }
              />
            ))}
          </ul>
        </section>
      )}

      {owner && (
        <section className="border-t border-line pt-5">
          <InviteFields
            taken={[...team.members.map((member) => member.email), ...pending.map((entry) => entry.email)]}
            submitLabel={t('teams.invite')}
            busy={update.isPending && busyId === null}
            serverError={inviteError}
            onInvite={invite}
          />
        </section>
      )}

      <ModalActions className="sm:items-center">
        <Button
          variant="ghost"
          className="text-danger sm:mr-auto"
          onClick={async () => {
            if (await exit(team)) onClose();
          }}
        >
          {owner ? <Unlink className="size-4" aria-hidden /> : <LogOut className="size-4" aria-hidden />}
          {owner ? t('teams.dissolve') : t('teams.leave')}
        </Button>
        <Button onClick={onClose}>{t('sharing.done')}</Button>
      </ModalActions>
    </div>
  );
}

const sectionTitle = 'text-xs font-semibold tracking-wide text-muted uppercase';
const iconButton =
  'grid size-9 shrink-0 cursor-pointer place-items-center rounded-lg text-muted hover:bg-danger-soft hover:text-danger disabled:cursor-not-allowed disabled:opacity-55';

/** The owner's changes to a team; the answer is the team as it now stands. */
function useTeamUpdate(folderId: string, teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTeamFolderBody) => teamsApi.update(teamId, body),
    onSuccess: (document) => {
      queryClient.setQueryData(teamsKeys.team('owner', folderId), document.meta.teamFolder);
      teamChanged(queryClient, 'owner');
    },
  });
}

function PersonRow({
  person,
  name,
  detail,
  you,
  children,
}: {
  person: ReturnType<typeof personOf>;
  name: string;
  detail: string;
  you: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li
      data-testid="team-person"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:flex-nowrap"
    >
      <Avatar person={person} size={36} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink">
          {name}
          {you && <span className="font-normal text-muted"> {t('teams.you')}</span>}
        </p>
        <p className="truncate text-xs text-muted">{detail}</p>
      </div>
      {children && <div className="flex items-center gap-1.5 max-sm:w-full max-sm:pl-12">{children}</div>}
    </li>
  );
}

const STATUS_LOOK = {
  pending: 'bg-accent-soft text-accent',
  expired: 'bg-surface-2 text-muted',
  rejected: 'bg-danger-soft text-danger',
} as const;

function InvitationRow({
  invitation,
  busy,
  onInviteAgain,
}: {
  invitation: TeamInvitationSummary;
  busy: boolean;
  onInviteAgain: () => void;
}) {
  const { t } = useTranslation();
  const status = invitation.status as keyof typeof STATUS_LOOK;
  return (
    <li
      data-testid="team-invitation"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:flex-nowrap"
    >
      <span className="grid size-9 shrink-0 place-items-center rounded-full bg-surface-2 text-muted">
        <Mail className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink">{invitation.email}</p>
        <p className="text-xs text-muted">{t(`teams.permission.${invitation.permission}`)}</p>
      </div>
      <div className="flex items-center gap-1.5 max-sm:w-full max-sm:pl-12">
        <span
          className={cn(
            'inline-flex h-6 items-center gap-1 rounded-full px-2 text-xs font-semibold',
            STATUS_LOOK[status],
          )}
        >
          {status === 'pending' && <Clock className="size-3.5" aria-hidden />}
          {t(`teams.invitation_status.${status}`)}
        </span>
        {status !== 'pending' && (
          <Button variant="ghost" size="sm" loading={busy} onClick={onInviteAgain}>
            {!busy && <RotateCw className="size-4" aria-hidden />}
            {t('teams.invite_again')}
          </Button>
        )}
      </div>
    </li>
  );
}
