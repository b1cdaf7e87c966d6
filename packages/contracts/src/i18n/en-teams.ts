/** Strings of team folders on the web: the two lists, the members, making a team, the invitation page (flat dotted keys). */
export const enTeams: Record<string, string> = {
  // The restriction alert of section 5
  'create_team_folder_temporarily_disabled.title': 'Creating team folders is temporarily disabled',
  'create_team_folder_temporarily_disabled.message':
    'Your account can\u2019t create team folders right now. Check the reason in the red bar, or contact us.',

  // The lists
  'teams.team_folders': 'Team folders',
  'teams.shared_with_me': 'Shared with me',
  'teams.your_team_folder': 'Your team folder',
  'teams.shared_by': 'Shared by',
  'teams.shared_by_can_edit': 'Shared by {{name}} \u00b7 you can edit',
  'teams.shared_by_can_view': 'Shared by {{name}} \u00b7 view only',
  'teams.badge': 'Team',
  'teams.badge_label': 'Team folder',
  'teams.members_count_one': '{{count}} member',
  'teams.members_count_other': '{{count}} members',
  'teams.no_members_yet': 'No members yet',
  'teams.invited_count_one': '{{count}} invited',
  'teams.invited_count_other': '{{count}} invited',
  'teams.empty_title': 'No team folders yet',
  'teams.empty_body':
    'A team folder is shared with the people you invite: they see and work in it with the permission you give them.',
  'teams.shared_empty_title': 'Nothing is shared with you yet',
  'teams.shared_empty_body':
    'When someone invites you to a team folder and you accept, it shows here with its owner and what you may do in it.',
  'teams.permission.can_edit': 'Can edit',
  'teams.permission.can_view': 'Can view',
  'teams.permission_hint.can_edit':
    'Browse, preview and download; also upload, create folders, rename, move and delete.',
  'teams.permission_hint.can_view': 'Browse, preview and download.',

  // Making a team folder
  'teams.new_team_folder': 'New team folder',
  'teams.convert': 'Convert to team folder',
  'teams.create_title': 'New team folder',
  'teams.create_lead':
    'A new folder in My files, shared with the people you invite. They get an e-mail and, with an account, a notification.',
  'teams.convert_title': 'Share \u201c{{name}}\u201d with a team',
  'teams.convert_lead':
    'The folder stays where it is; the people you invite see it in Shared with me once they accept.',
  'teams.folder_name': 'Name',
  'teams.folder_name_placeholder': 'Spring campaign',
  'teams.invite_email': 'Invite by e-mail',
  'teams.invite_hint': 'Invitations are valid for 7 days.',
  'teams.limit_hint': '{{used}} of {{total}} team members on your plan, counting invitations.',
  'teams.permission_label': 'Permission',
  'teams.permission_of': 'Permission of {{name}}',
  'teams.add': 'Add',
  'teams.to_invite': 'People to invite',
  'teams.already_invited': '{{email}} is already in this team or invited.',
  'teams.create_submit': 'Create team folder',
  'teams.convert_submit': 'Share with the team',
  'teams.created': '\u201c{{name}}\u201d is a team folder now.',

  // Members
  'teams.members': 'Members',
  'teams.manage_members': 'Manage members',
  'teams.members_title': 'Members of \u201c{{name}}\u201d',
  'teams.members_lead_owner': 'Members work in this folder with the permission you give them.',
  'teams.members_lead_member': '{{name}} owns this folder and decides who is in it.',
  'teams.members_failed': 'The members could not be loaded.',
  'teams.people_count_one': '{{count}} person',
  'teams.people_count_other': '{{count}} people',
  'teams.owner': 'Owner',
  'teams.you': '(you)',
  'teams.no_members': 'Nobody has joined yet. Invite someone below.',
  'teams.remove_member': 'Remove {{name}}',
  'teams.invitations_count_one': '{{count}} invitation',
  'teams.invitations_count_other': '{{count}} invitations',
  'teams.invitation_status.pending': 'Pending',
  'teams.invitation_status.expired': 'Expired',
  'teams.invitation_status.rejected': 'Declined',
  'teams.invite_again': 'Invite again',
  'teams.invite': 'Invite',
  'teams.invited': 'An invitation was sent to {{email}}.',

  // Leaving and dissolving
  'teams.leave': 'Leave team',
  'teams.dissolve': 'Dissolve team',
  'teams.confirm_leave.title': 'Leave this team?',
  'teams.confirm_leave.message':
    'You lose access to \u201c{{name}}\u201d at once. Its owner can invite you again.',
  'teams.confirm_dissolve.title': 'Dissolve this team?',
  'teams.confirm_dissolve.message':
    'Every member loses access to \u201c{{name}}\u201d and open invitations end. The folder stays in My files with everything in it.',
  'teams.left': 'You left \u201c{{name}}\u201d.',
  'teams.dissolved': 'The team of \u201c{{name}}\u201d was dissolved; the folder stays in My files.',

  // The invitation page
  'teams.open_shared_with_me': 'Open Shared with me',
  'teams.open_team_folders': 'Open team folders',
  'teams.invitation.title': 'Join \u201c{{folder}}\u201d',
  'teams.invitation.lead': '{{inviter}} invites you to work in the team folder \u201c{{folder}}\u201d.',
  'teams.invitation.accept': 'Accept invitation',
  'teams.invitation.missing_title': 'This invitation does not exist',
  'teams.invitation.missing_body': 'The link may be mistyped, or the team was dissolved.',
  'teams.invitation.failed_title': 'This invitation could not be loaded',
  'teams.invitation.other_address_title': 'This invitation is for another address',
  'teams.invitation.other_address_body':
    'You are signed in as {{email}}. If the invitation was sent to this address, open it from the link in its e-mail, which proves the address is yours. Otherwise sign in with the address it was sent to, or ask for an invitation to this one.',
  'teams.invitation.switch_account': 'Sign in with another account',
  'teams.invitation.my_files': 'Go to my files',
  'teams.invitation.invitee.accepted.title': 'You\u2019re in',
  'teams.invitation.invitee.accepted.body': '\u201c{{folder}}\u201d is in Shared with me.',
  'teams.invitation.invitee.rejected.title': 'Invitation declined',
  'teams.invitation.invitee.rejected.body':
    'You declined the invitation of {{inviter}} to \u201c{{folder}}\u201d.',
  'teams.invitation.invitee.expired.title': 'This invitation has expired',
  'teams.invitation.invitee.expired.body':
    'Invitations are valid for 7 days. Ask {{inviter}} for a new one if you still want to join \u201c{{folder}}\u201d.',
  'teams.invitation.inviter.pending.title': 'Waiting for an answer',
  'teams.invitation.inviter.pending.body':
    '{{email}} has not answered your invitation to \u201c{{folder}}\u201d yet.',
  'teams.invitation.inviter.accepted.title': 'Invitation accepted',
  'teams.invitation.inviter.accepted.body': '{{email}} joined \u201c{{folder}}\u201d.',
  'teams.invitation.inviter.rejected.title': 'Invitation declined',
  'teams.invitation.inviter.rejected.body': '{{email}} declined your invitation to \u201c{{folder}}\u201d.',
  'teams.invitation.inviter.expired.title': 'This invitation has expired',
  'teams.invitation.inviter.expired.body':
    '{{email}} did not answer within 7 days. Invite them again from the members of \u201c{{folder}}\u201d.',

  // An invitation's notification once it ended, and the owner's notifications (their button, too)
  'notifications.invitation.accepted': 'Accepted',
  'notifications.invitation.rejected': 'Declined',
  'notifications.invitation.expired': 'Expired',
  'notifications.open_folder': 'Open folder',
};
