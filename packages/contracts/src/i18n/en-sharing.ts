/** Strings of share links: the share dialog, My shared items and the public share pages (flat dotted keys). */
export const enSharing: Record<string, string> = {
  // Validation of the share calls (server and web)
  'validation.share_expiry': 'Choose one of the offered expiry times, or none.',
  'validation.share_password_min': 'Use at least 4 characters.',
  'validation.share_password_required': 'Enter a password for the protected link.',
};
