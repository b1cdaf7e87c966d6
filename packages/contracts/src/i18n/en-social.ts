/** Social sign-in: the provider settings' validation, the sign-in buttons, callback errors and linked accounts. */
export const enSocial: Record<string, string> = {
  'validation.url': 'Enter a full address starting with https://.',
  'validation.social_provider_name':
    'Use lower-case letters, digits and dashes (it becomes part of the address).',
  'validation.social_provider_taken': 'Another provider already has this name.',
  'validation.social_no_issuer': 'GitHub and Facebook have no issuer; leave it empty.',
  'validation.social_discovered': 'OpenID Connect providers publish their addresses; leave this empty.',
};
