/** The HTML e-mails' layout and each mail's button (the texts themselves sit with their module's strings). */
export const enMail: Record<string, string> = {
  'mail.layout.link_hint': 'If the button does not work, paste this address into your browser:',
  'mail.layout.footer': 'Sent by {{app}} · {{address}}',
  'mail.password_reset.action': 'Choose a new password',
  'mail.verify_email.action': 'Verify my address',
  'mail.registration_attempt.action': 'Choose a new password',
  'mail.share_link.action': 'Open \u201c{{item}}\u201d',
  'mail.upload_request.action': 'Send your files',
  'mail.upload_request_arriving.action': 'Open the folder',
  'mail.upload_request_filled.action': 'Open the folder',
  'mail.team_invitation.action': 'See the invitation',
};
