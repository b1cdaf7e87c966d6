import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, Plus, Unlink, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Avatar } from '../../components/avatar';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { useFileActions, type ItemExtras } from '../files/file-actions';
import { FileBrowser } from '../files/file-browser';
import { AvatarStack, PermissionChip, peopleOf, personOf } from './team-people';
import { TeamMembersDialog } from './team-members-dialog';
import { createTeamSource } from './team-source';
import { useTeamExit } from './team-exit';
import { teamQuery, teamsKeys, useTeamFolderIds, useTeamOf, type Team, type TeamSide } from './teams-api';

/** /platform/team-folders/{id?}: the owner's team folders; inside one, its content and its members. */
export function TeamFoldersPage() {
  const { id } = useParams();
  return <TeamBrowser side="owner" folderId={id ?? null} />;
}

/** /platform/shared-with-me/{id?}: team folders others shared with the user, worked in as a member. */
export function SharedWithMePage() {
  const { id } = useParams();
  return <TeamBrowser side="member" folderId={id ?? null} />;
}

const INSIDE: ItemExtras = {};

function TeamBrowser({ side, folderId }: { side: TeamSide; folderId: string | null }) {
  const { t } = useTranslation();
  const owner = side === 'owner';
  const loaded = useTeamOf(side, folderId).data;
  const team = folderId ? (loaded ?? null) : null;
  const queryClient = useQueryClient();
  const source = useMemo(
    () =>
      createTeamSource(
        side,
        team,
        () => void queryClient.invalidateQueries({ queryKey: teamsKeys.side(side) }),
        (teams) => {
          for (const [id, listed] of Object.entries(teams))
            queryClient.setQueryData(teamsKeys.team(side, id), listed);
        },
      ),
    [side, team, queryClient],
  );
  const exit = useTeamExit(side);
  // With none yet, the empty list offers the first one itself.
  const hasTeams = useTeamFolderIds(owner && !folderId).size > 0;
  // The team whose members are shown, named by one of its folders.
  const [membersOf, setMembersOf] = useState<string | null>(null);

  // The list of team folders says, for each, who is in it (owner) or whose it is (member).
  const listExtras = useMemo<ItemExtras>(
    () => ({
      entries: ([target, ...others]) =>
        !target || others.length > 0
          ? []
          : [
              { key: 'members', label: t('teams.members'), icon: Users, run: () => setMembersOf(target.id) },
              {
                key: 'exit',
                label: owner ? t('teams.dissolve') : t('teams.leave'),
                icon: owner ? Unlink : LogOut,
                danger: true,
                run: () => void exit({ id: target.id, name: target.attributes.name }),
              },
            ],
      column: {
        label: owner ? t('teams.members') : t('teams.shared_by'),
        cell: (item, compact) => <TeamCell side={side} folderId={item.id} compact={compact} />,
      },
    }),
    [t, owner, side, exit],
  );

  const topLabel = owner ? t('teams.team_folders') : t('teams.shared_with_me');
  let eyebrow = t('sharing.area');
  if (team)
    eyebrow = team.permission
      ? t(`teams.shared_by_${team.permission}`, { name: team.owner.name })
      : t('teams.your_team_folder');

  let headerActions;
  if (team) headerActions = <MembersButton side={side} team={team} onClick={() => setMembersOf(folderId)} />;
  else if (owner && !folderId && hasTeams) headerActions = <NewTeamFolderButton />;

  return (
    <>
      <FileBrowser
        variant="files"
        folderId={folderId}
        source={source}
        topLabel={topLabel}
        eyebrow={eyebrow}
        headerActions={headerActions}
        extras={folderId ? INSIDE : listExtras}
        emptyState={folderId ? undefined : <NoTeams side={side} />}
      />
      {membersOf && <TeamMembersDialog side={side} folderId={membersOf} onClose={() => setMembersOf(null)} />}
    </>
  );
}

/** "New team folder", refused with the description's alert while team folders are disabled. */
function NewTeamFolderButton() {
  const { t } = useTranslation();
  const actions = useFileActions();
  return (
    <Button onClick={() => actions.makeTeamFolder(null)}>
      <Plus className="size-4" aria-hidden />
      {t('teams.new_team_folder')}
    </Button>
  );
}

/** The team's faces in the header, opening its members (where a member also leaves). */
function MembersButton({ side, team, onClick }: { side: TeamSide; team: Team; onClick: () => void }) {
  const { t } = useTranslation();
  const label = side === 'owner' ? t('teams.manage_members') : t('teams.members');
  return (
    <Button variant="secondary" onClick={onClick} aria-label={label} className="pl-2.5">
      <AvatarStack people={peopleOf(team)} size={24} max={3} />
      {/* Beside the upload buttons, phones keep one row: the faces alone say it there. */}
      <span className="hidden sm:inline">{label}</span>
    </Button>
  );
}

/** One team folder's people in the list: its members (owner), or its owner and my permission. */
function TeamCell({ side, folderId, compact }: { side: TeamSide; folderId: string; compact: boolean }) {
  const { t } = useTranslation();
  const team = useQuery({ ...teamQuery(side, folderId), staleTime: 30_000 }).data;
  if (!team) return <span className="block h-4 w-28 animate-pulse rounded bg-surface-2" />;
  if (side === 'member')
    return (
      <span className="flex min-w-0 items-center gap-2 text-xs text-muted">
        {!compact && <Avatar person={personOf(team.owner)} size={24} />}
        <span className="min-w-0 truncate text-sm text-ink max-md:text-xs max-md:text-muted">
          {team.owner.name}
        </span>
        {team.permission && <PermissionChip permission={team.permission} className="max-md:h-5" />}
      </span>
    );
  const invited = team.invitations.filter((invitation) => invitation.status === 'pending').length;
  const counts = [
    team.members.length > 0
      ? t('teams.members_count', { count: team.members.length })
      : t('teams.no_members_yet'),
    ...(invited > 0 ? [t('teams.invited_count', { count: invited })] : []),
  ].join(' · ');
  return (
    <span className="flex min-w-0 items-center gap-2 text-xs text-muted">
      {!compact && team.members.length > 0 && <AvatarStack people={team.members.map(personOf)} size={24} />}
      <span className="truncate">{counts}</span>
    </span>
  );
}

function NoTeams({ side }: { side: TeamSide }) {
  const { t } = useTranslation();
  if (side === 'member')
    return (
      <EmptyState icon={Users} title={t('teams.shared_empty_title')} body={t('teams.shared_empty_body')} />
    );
  return (
    <EmptyState icon={Users} title={t('teams.empty_title')} body={t('teams.empty_body')}>
      <NewTeamFolderButton />
    </EmptyState>
  );
}
