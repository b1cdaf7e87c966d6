/** Strings the server sends about the account: avatar and password errors. */
export const enAccountServer: Record<string, string> = {
  'validation.avatar_type': 'Choose a PNG, JPEG or WebP image.',
  'validation.avatar_unreadable': 'This image could not be read. Choose another one.',
  'validation.avatar_field': 'Send the image in the avatar field.',
  'validation.avatar_too_large': 'The image can be at most {{megabytes}} MB.',
  'validation.current_password': 'This is not your current password.',
  'validation.display_name': 'A name cannot contain control characters or text-direction marks.',
};
