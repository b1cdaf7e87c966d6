/** Strings the server sends (e-mails, error messages), flat dotted keys. */
export const enServer: Record<string, string> = {
  'errors.validation_failed': 'The given data was invalid.',
  'errors.internal': 'Server Error.',
  'errors.unauthenticated': 'Unauthenticated.',
  'errors.forbidden': 'This action is unauthorized.',
  'errors.not_found': 'Not found.',
  'errors.method_not_allowed': 'This method is not allowed here.',
  'errors.malformed_form': 'This form could not be read.',
  'errors.throttled': 'Too many requests. Please slow down.',
  'errors.zip_busy': 'Too many downloads as zip are running. Try again in a few seconds.',
  'errors.mail_quota': 'An account can send e-mail to at most {{limit}} addresses a day. Try again tomorrow.',
  'errors.not_installed': 'Atelier is not installed yet. Finish the setup wizard first.',
  'errors.maintenance': '{{app}} is down for maintenance. Please come back soon.',
  'errors.setup_done': 'The installation is already finished.',
  'errors.setup_token':
    'This setup link is not valid. Open the link the server printed when it started (it ends in ?token=…).',

  'validation.required': 'This field is required.',
  'validation.email': 'Enter a valid e-mail address.',
  'validation.password_min': 'The password must be at least 8 characters.',
  'validation.password_confirmation': 'The password confirmation does not match.',
  'validation.purchase_code': 'This does not look like a purchase code.',
  'validation.email_taken': 'This e-mail address is already registered.',
  'validation.no_nul': 'This text contains a character that is not allowed (U+0000).',

  'auth.failed': 'These credentials do not match our records.',
  'auth.throttled': 'Too many sign-in attempts. Please try again in {{seconds}} seconds.',
  'auth.registration_disabled': 'Registration is disabled on this instance.',
  'auth.email_not_verified': 'Please verify your e-mail address first. We sent you a link.',
  'auth.reset_link_sent': 'If an account exists for this address, we sent it a link to reset the password.',
  'auth.reset_invalid': 'This password reset link is invalid or has expired.',
  'auth.password_reset': 'Your password has been reset.',

  'restrictions.storage_full': 'Your storage is full. Free some space or upgrade your plan to upload again.',

  'setup.database_pinned': 'The database is set by DATABASE_URL; change it there.',
  'setup.check.runtime': 'Node.js runtime',
  'setup.check.data_dir': 'Writable data folder',
  'setup.check.ffmpeg': 'ffmpeg for video rendering',
  'setup.check.database': 'Database connection',

  'mail.password_reset.subject': 'Reset your {{app}} password',
  'mail.password_reset.body':
    'Hello,\n\nSomeone asked to reset the password of your {{app}} account. Open this link to choose a new one:\n\n{{link}}\n\nThe link works once and expires in {{minutes}} minutes. If you did not ask for it, ignore this e-mail.\n',
  'mail.verify_email.subject': 'Verify your e-mail address for {{app}}',
  'mail.verify_email.body':
    'Welcome to {{app}}!\n\nPlease confirm your e-mail address by opening this link:\n\n{{link}}\n\nIf you did not create an account, ignore this e-mail.\n',
  'mail.registration_attempt.subject': 'Someone tried to register with your address on {{app}}',
  'mail.registration_attempt.body':
    'Hello,\n\nSomeone tried to create a {{app}} account with this e-mail address, which already has an account. No new account was made and yours is unchanged.\n\nIf it was you, sign in instead; if you forgot your password, choose a new one here:\n\n{{link}}\n\nIf it was not you, ignore this e-mail.\n',
  'mail.contact.subject': 'New message from the {{app}} contact form',
  'mail.contact.body': 'From: {{email}}\n\n{{message}}\n',
};
