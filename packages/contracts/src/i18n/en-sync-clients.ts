/** Sync clients (Nextcloud's and ownCloud's apps, rclone): the server's refusals and the web app's pages. */
export const enSyncClients: Record<string, string> = {
  'sync_clients.ocs_header_missing':
    'CSRF check failed: OCS calls must send the header OCS-APIRequest: true.',
};
