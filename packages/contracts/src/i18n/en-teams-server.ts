/** Messages the server answers team-folder calls with, and the invitation's e-mail and notification. */
export const enTeamsServer: Record<string, string> = {
  'errors.team_folder_disabled': 'Creating team folders is disabled for your account.',
  'teams.already_team': 'This folder is already a team folder, or inside one.',
  'teams.team_in_team': 'A team folder cannot be inside another team folder.',
  'teams.invite_self': 'You own this team folder; invite someone else.',
  'teams.member_limit': 'Your plan allows {{limit}} team members, counting pending invitations.',
  'teams.invitation_expired': 'This invitation has expired. Ask for a new one.',
  'teams.invitation_accepted': 'This invitation was already accepted.',
  'teams.invitation_rejected': 'This invitation was declined.',
  'notifications.team_invitation.title': 'Team folder invitation',
  'notifications.team_invitation.description':
    '{{inviter}} invites you to the team folder \u201c{{folder}}\u201d.',
  'notifications.team_accepted.title': '{{name}} joined',
  'notifications.team_accepted.description':
    '{{name}} ({{email}}) accepted your invitation to the team folder \u201c{{folder}}\u201d.',
  'notifications.team_rejected.title': '{{name}} declined',
  'notifications.team_rejected.description':
    '{{name}} ({{email}}) will not join the team folder \u201c{{folder}}\u201d.',
  'notifications.team_left.title': '{{name}} left',
  'notifications.team_left.description':
    '{{name}} ({{email}}) left the team folder \u201c{{folder}}\u201d and no longer sees its files.',
  'mail.team_invitation.subject': '{{inviter}} invites you to \u201c{{folder}}\u201d',
  'mail.team_invitation.body':
    'Hello,\n\n{{inviter}} invites you to work in the team folder \u201c{{folder}}\u201d on {{app}}. Accept or decline here:\n\n{{link}}\n\nSign in (or create an account) with this e-mail address to answer. The invitation is valid for 7 days.\n',
};
