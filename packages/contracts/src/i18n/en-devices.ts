/** Devices (signed-in sessions) and app passwords: the profile page's sections and the server's errors. */
export const enDevices: Record<string, string> = {
  'devices.title': 'Devices',
  'devices.lead':
    'Where your account is signed in. Sign out of any device you no longer use or do not recognise.',
  'devices.this_device': 'This device',
  'devices.browser_on_os': '{{browser}} on {{os}}',
  'devices.unknown_browser': 'Unknown browser',
  'devices.unknown_address': 'Unknown address',
  'devices.active_now': 'Active now',
  'devices.active_recently': 'Active in the last few minutes',
  'devices.last_active': 'Last active {{when}}',
  'devices.sign_out': 'Sign out',
  'devices.sign_out_device': 'Sign out {{device}}',
  'devices.signed_out': '{{device}} is signed out.',

  'app_passwords.title': 'App passwords',
  'app_passwords.lead':
    'For WebDAV clients and scripts, so they never hold your account password. They cannot sign in to this app, and each can be revoked on its own.',
  'app_passwords.name': 'Name',
  'app_passwords.name_placeholder': 'e.g. Laptop backup',
  'app_passwords.create': 'Create app password',
  'app_passwords.empty': 'No app passwords yet.',
  'app_passwords.created_on': 'Created {{date}}',
  'app_passwords.last_used': 'last used {{when}}',
  'app_passwords.never_used': 'never used',
  'app_passwords.revoke': 'Revoke',
  'app_passwords.revoke_named': 'Revoke {{name}}',
  'app_passwords.revoke_title': 'Revoke “{{name}}”?',
  'app_passwords.revoke_message': 'Anything signed in with it stops working at once.',
  'app_passwords.revoked': '“{{name}}” is revoked.',
  'app_passwords.created_title': 'App password “{{name}}”',
  'app_passwords.created_lead': 'Copy it now: it will not be shown again.',
  'app_passwords.password': 'Password',
  'app_passwords.copy': 'Copy',
  'app_passwords.webdav_address': 'WebDAV address',
  'app_passwords.user_name': 'User name',
  'app_passwords.webdav_hint':
    'Add this address in your WebDAV client (Finder, Windows Explorer, rclone, a script) and sign in with your e-mail and this password.',
  'app_passwords.done': 'Done',

  'validation.app_password_name_too_long': 'A name can have at most 100 characters.',
  'validation.app_passwords_limit':
    'You can have at most {{max}} app passwords. Revoke one you no longer use.',
};
