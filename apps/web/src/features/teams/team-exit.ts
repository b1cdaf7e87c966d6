import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { askConfirm, pushToast } from '../../components/overlays/overlay-store';
import { useGenericError } from '../../components/overlays/use-generic-error';
import { teamsPath } from './team-source';
import { teamChanged, teamsApi, type TeamSide } from './teams-api';

/**
 * Ends one's part in a team after a confirmation: the owner dissolves it (the folder stays theirs,
 * a plain folder again), a member leaves it. Either way the side's list is shown next.
 */
export function useTeamExit(side: TeamSide) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const showGenericError = useGenericError();
  const owner = side === 'owner';

  return useCallback(
    async (team: { id: string; name: string }) => {
      const confirmed = await askConfirm({
        title: t(owner ? 'teams.confirm_dissolve.title' : 'teams.confirm_leave.title'),
        message: t(owner ? 'teams.confirm_dissolve.message' : 'teams.confirm_leave.message', {
          name: team.name,
        }),
        confirmLabel: t(owner ? 'teams.dissolve' : 'teams.leave'),
        danger: true,
      });
      if (!confirmed) return false;
      try {
        await (owner ? teamsApi.dissolve(team.id) : teamsApi.leave(team.id));
      } catch {
        showGenericError();
        return false;
      }
      await navigate(teamsPath[side]);
      teamChanged(queryClient, side);
      pushToast('success', t(owner ? 'teams.dissolved' : 'teams.left', { name: team.name }));
      return true;
    },
    [t, owner, side, queryClient, navigate, showGenericError],
  );
}
