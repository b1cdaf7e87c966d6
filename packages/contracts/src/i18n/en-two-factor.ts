/** Two-factor authentication: the profile's section, the sign-in challenge and the server's answers. */
export const enTwoFactor: Record<string, string> = {
  // Server
  'two_factor.already_enabled': 'Two-factor authentication is already on.',
  'two_factor.not_pending': 'Turn two-factor authentication on first, then confirm it with a code.',
  'two_factor.not_enabled': 'Two-factor authentication is off.',
  'two_factor.code_format': 'Enter the 6 digits your authenticator app shows.',
  'two_factor.code_invalid': 'This code is not right, or it was already used. Wait for the next one.',
  'two_factor.recovery_code_invalid': 'This recovery code is not right, or it was already used.',
  'two_factor.code_or_recovery_code': 'Enter a code or a recovery code.',
  'two_factor.challenge_expired': 'This sign-in has expired. Sign in again.',

  // Profile
  'two_factor.title': 'Two-factor authentication',
  'two_factor.lead':
    'Ask for a code from an authenticator app at every sign-in, so a password alone is not enough.',
  'two_factor.state_off': 'Off. Signing in needs only your password.',
  'two_factor.state_on': 'On since {{date}}. Signing in asks for a code from your app.',
  'two_factor.password': 'Your password',
  'two_factor.password_hint': 'Needed to get new recovery codes or to turn two-factor authentication off.',
  'two_factor.enable': 'Turn on',
  'two_factor.qr_alt': 'QR code to scan with an authenticator app',
  'two_factor.step_scan':
    'Scan the QR code with an authenticator app (such as 1Password, Google Authenticator or Aegis), or type the key below into it.',
  'two_factor.step_code': 'Enter the 6-digit code the app shows to finish.',
  'two_factor.secret': 'Setup key',
  'two_factor.copy': 'Copy key',
  'two_factor.code': 'Code from the app',
  'two_factor.confirm': 'Confirm',
  'two_factor.cancel': 'Cancel',
  'two_factor.enabled': 'Two-factor authentication is on.',
  'two_factor.disabled': 'Two-factor authentication is off.',
  'two_factor.codes_left': '{{left}} of {{total}} recovery codes left.',
  'two_factor.codes_running_out': 'Get new ones before they run out.',
  'two_factor.regenerate': 'New recovery codes',
  'two_factor.disable': 'Turn off',
  'two_factor.codes_title': 'Save your recovery codes',
  'two_factor.codes_lead':
    'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  'two_factor.download': 'Download',
  'two_factor.copy_codes': 'Copy all',
  'two_factor.codes_saved': 'I have saved them',
  'two_factor.codes_file': 'recovery-codes-{{email}}.txt',

  // Sign-in
  'two_factor.recovery_title': 'Use a recovery code',
  'two_factor.recovery_lead':
    'Enter one of the recovery codes you saved when you turned two-factor authentication on.',
  'two_factor.recovery_code': 'Recovery code',
  'two_factor.use_recovery_code': 'Use a recovery code instead',
  'two_factor.use_app_code': 'Use the code from my app instead',
  'two_factor.back_to_sign_in': 'Back to sign in',
};
