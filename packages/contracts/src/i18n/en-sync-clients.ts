/** Sync clients (Nextcloud's and ownCloud's apps, rclone): the server's refusals and the web app's pages. */
export const enSyncClients: Record<string, string> = {
  'sync_clients.ocs_header_missing':
    'CSRF check failed: OCS calls must send the header OCS-APIRequest: true.',
  'sync_clients.shares.link_only': 'Only public links (shareType 3) can be shared here.',
  'sync_clients.shares.permissions':
    'A link lets people read (1), or read and change a folder (15); other permissions are not supported.',
  'sync_clients.shares.expire_date': 'The expiry date must be a day written YYYY-MM-DD.',
  'sync_clients.shares.subfiles': 'Listing the links inside a folder (subfiles) is not supported.',

  'pages.sync_clients': 'Sync clients',
  'pages.login_flow': 'Connect an app',

  'sync_clients.flow.title': 'Connect {{client}}?',
  'sync_clients.flow.lead':
    '{{client}} asks to sync with your {{app}} account. Only grant access if you just started signing in from that app.',
  'sync_clients.flow.client': 'App',
  'sync_clients.flow.user_agent': 'User agent',
  'sync_clients.flow.no_user_agent': 'nothing (no user agent sent)',
  'sync_clients.flow.account': 'Account',
  'sync_clients.flow.hint':
    'The app gets an app password of its own, never your password. You can revoke it at any time under Profile → App passwords.',
  'sync_clients.flow.grant': 'Grant access',
  'sync_clients.flow.refuse': 'Refuse',
  'sync_clients.flow.switch_account': 'Use another account',
  'sync_clients.flow.granted_title': '{{client}} is connected',
  'sync_clients.flow.granted_body':
    'Go back to the app: it finishes signing in by itself. You can close this window.',
  'sync_clients.flow.see_app_passwords': 'See your app passwords',
  'sync_clients.flow.refused_title': 'Access refused',
  'sync_clients.flow.refused_body': '{{client}} was not connected. You can close this window.',
  'sync_clients.flow.missing_title': 'This sign-in has ended',
  'sync_clients.flow.missing_body':
    'It expired, was already answered, or the address is incomplete. Start signing in from the app again.',
  'sync_clients.flow.failed_title': 'The sign-in could not be loaded',
  'sync_clients.flow.failed_body': 'Check your connection and try again.',

  'sync_clients.page.title': 'Sync clients',
  'sync_clients.page.lead':
    'Keep folders on your computer and phone in step with your {{app}} files, with the Nextcloud and ownCloud apps or rclone.',
  'sync_clients.page.server_title': 'Server address',
  'sync_clients.page.server_lead': 'Enter this address wherever an app asks for the server.',
  'sync_clients.page.server_address': 'Server address',
  'sync_clients.page.desktop_title': 'Nextcloud desktop',
  'sync_clients.page.desktop_lead': 'For Windows, macOS and Linux; keeps a folder in step both ways.',
  'sync_clients.page.desktop_install': 'Install the <b>Nextcloud desktop</b> app from nextcloud.com/install.',
  'sync_clients.page.desktop_address': 'Choose <b>Log in</b> and enter the server address above.',
  'sync_clients.page.desktop_browser':
    'Your browser opens this site: sign in (with your second factor if you use one) and choose <b>Grant access</b>.',
  'sync_clients.page.desktop_folder': 'Back in the app, pick the folder to keep in step.',
  'sync_clients.page.mobile_title': 'Nextcloud for Android and iOS',
  'sync_clients.page.mobile_lead': 'Browse your files, upload photos and keep chosen files offline.',
  'sync_clients.page.mobile_install': 'Install <b>Nextcloud</b> from Google Play, F-Droid or the App Store.',
  'sync_clients.page.mobile_address': 'Tap <b>Log in</b> and enter the server address above.',
  'sync_clients.page.mobile_browser':
    'Sign in on the page that opens (with your second factor if you use one) and tap <b>Grant access</b>.',
  'sync_clients.page.mobile_folder': 'The app opens your files.',
  'sync_clients.page.owncloud_title': 'ownCloud desktop',
  'sync_clients.page.owncloud_lead': 'The ownCloud app signs in with an app password instead of the browser.',
  'sync_clients.page.owncloud_password': 'Create an <b>app password</b> on your profile and copy it.',
  'sync_clients.page.owncloud_sign_in':
    'In the app, enter the server address, your e-mail as the user name and the app password.',
  'sync_clients.page.an_app_password': 'an app password from your profile',
  'sync_clients.page.rclone_title': 'rclone',
  'sync_clients.page.rclone_lead':
    'For scripts, backups and servers: copies and syncs from the command line.',
  'sync_clients.page.rclone_password_placeholder': 'your app password',
  'sync_clients.page.rclone_hint':
    'Then, for example, rclone copy ./photos atelier:photos. With vendor=nextcloud rclone keeps modification times and checks checksums.',
  'sync_clients.page.revoke_hint':
    'Each app you connect gets an app password of its own. Revoke one there and that app stops syncing at once.',
  'sync_clients.page.app_passwords': 'Your app passwords',
  'app_passwords.sync_clients_hint': 'Connecting the Nextcloud or ownCloud apps, or rclone?',
  'app_passwords.sync_clients_link': 'See how',
};
