/** Social sign-in: the provider settings' validation, the sign-in buttons, callback errors and linked accounts. */
export const enSocial: Record<string, string> = {
  'validation.url': 'Enter a full address starting with https://.',
  'validation.social_provider_name':
    'Use lower-case letters, digits and dashes (it becomes part of the address).',
  'validation.social_provider_taken': 'Another provider already has this name.',
  'validation.social_no_issuer': 'GitHub and Facebook have no issuer; leave it empty.',
  'validation.social_discovered': 'OpenID Connect providers publish their addresses; leave this empty.',
  'social.last_sign_in_method':
    'This is your only way to sign in. Set a password with "Forgot your password?" on the sign-in page first.',
  'social.continue_with': 'Continue with {{provider}}',
  'social.error.state': 'That sign-in link was already used or has expired. Please try again.',
  'social.error.provider': 'The provider could not confirm your sign-in. Please try again.',
  'social.error.email_missing':
    'The provider did not share an e-mail address, so no account could be found or created.',
  'social.error.email_unverified':
    'The provider has not confirmed this e-mail address. If you already have an account, sign in with your password first, then link the provider from your profile.',
  'social.error.link_required':
    'An account with this e-mail already exists. Sign in with your password first, then link the provider from your profile.',
  'social.error.registration_closed':
    'New accounts cannot be created right now. Ask the administrator for an invitation.',
  'social.error.already_linked': 'This provider account is already linked to another account.',
  'social.linked_title': 'Connected accounts',
  'social.linked_lead': 'Providers you can sign in with instead of your password.',
  'social.linked_as': 'Connected as {{email}}',
  'social.linked_no_email': 'Connected',
  'social.not_linked': 'Not connected',
  'social.link': 'Connect',
  'social.unlink': 'Disconnect',
  'social.linked_done': '{{provider}} is now connected to your account.',
  'social.unlinked_done': '{{provider}} was disconnected.',
  'social.last_method_hint':
    'This is your only way to sign in. Set a password with "Forgot your password?" on the sign-in page before disconnecting it.',
  'social.provider_removed': 'No longer offered',
};
