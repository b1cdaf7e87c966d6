import {
  ConvertTeamFolderBody,
  CreateTeamFolderBody,
  type TeamInvitationInput,
  type TeamPermission,
} from '@atelier/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Mail, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pushToast } from '../../components/overlays/overlay-store';
import { Button } from '../../components/ui/button';
import { InputField } from '../../components/ui/field';
import { Modal, ModalActions } from '../../components/ui/modal';
import { useApiForm, validateWith } from '../../lib/use-api-form';
import { filesKeys, type FileItem } from '../files/files-api';
import { InviteFields, PermissionSelect } from './invite-fields';
import { teamsPath } from './team-source';
import { teamChanged, teamsApi } from './teams-api';

/**
 * Makes a team folder: a new one in My files (its name and invitations), or one of the owner's
 * folders shared with the people invited. The team's page opens next.
 */
export function TeamFolderDialog({ folder, onClose }: { folder: FileItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [invitations, setInvitations] = useState<TeamInvitationInput[]>([]);

  const form = useApiForm(
    () =>
      folder
        ? teamsApi.convert(folder.id, validateWith(ConvertTeamFolderBody, { invitations }))
        : teamsApi.create(validateWith(CreateTeamFolderBody, { name: name.trim(), invitations })),
    async (document) => {
      teamChanged(queryClient, 'owner');
      void queryClient.invalidateQueries({ queryKey: filesKeys.listings });
      void queryClient.invalidateQueries({ queryKey: filesKeys.navigation });
      pushToast('success', t('teams.created', { name: document.data.attributes.name }));
      onClose();
      await navigate(`${teamsPath.owner}/${document.data.id}`);
    },
  );

  const setPermission = (email: string, permission: TeamPermission) =>
    setInvitations((list) => list.map((entry) => (entry.email === email ? { ...entry, permission } : entry)));

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={folder ? t('teams.convert_title', { name: folder.attributes.name }) : t('teams.create_title')}
      description={folder ? t('teams.convert_lead') : t('teams.create_lead')}
      className="max-w-xl"
      sheet
    >
      <form onSubmit={form.onSubmit} className="mt-5 flex flex-col gap-5" noValidate>
        {!folder && (
          <InputField
            label={t('teams.folder_name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={255}
            required
            placeholder={t('teams.folder_name_placeholder')}
            error={form.fieldErrors.name}
          />
        )}
        <InviteFields
          taken={invitations.map((entry) => entry.email)}
          submitLabel={t('teams.add')}
          serverError={form.fieldErrors.invitations}
          onInvite={(invitation) => setInvitations((list) => [...list, invitation])}
        />
        {invitations.length > 0 && (
          <ul
            aria-label={t('teams.to_invite')}
            className="flex flex-col divide-y divide-line rounded-2xl border border-line"
          >
            {invitations.map((invitation) => (
              <li key={invitation.email} className="flex items-center gap-3 py-2 pr-2 pl-3">
                <Mail className="size-4 shrink-0 text-muted" aria-hidden />
                <span className="min-w-0 flex-1 truncate text-sm text-ink">{invitation.email}</span>
                <PermissionSelect
                  value={invitation.permission}
                  label={t('teams.permission_of', { name: invitation.email })}
                  onChange={(permission) => setPermission(invitation.email, permission)}
                />
                <button
                  type="button"
                  onClick={() =>
                    setInvitations((list) => list.filter((entry) => entry.email !== invitation.email))
                  }
                  aria-label={t('sharing.remove_address', { address: invitation.email })}
                  className="grid size-9 shrink-0 cursor-pointer place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-ink"
                >
                  <X className="size-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        {/* A folder already a team folder, or inside one, is refused on its id. */}
        {(form.formError ?? form.fieldErrors.id) && (
          <p role="alert" className="text-sm text-danger">
            {form.formError ?? form.fieldErrors.id}
          </p>
        )}
        <ModalActions>
          <Button type="button" variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {folder ? t('teams.convert_submit') : t('teams.create_submit')}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
