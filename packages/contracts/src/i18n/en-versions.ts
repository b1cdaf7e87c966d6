/** Versions: the panel, the upload name prompt, the retention settings, and what the server answers and notifies. */
export const enVersions: Record<string, string> = {
  'errors.version_current': 'This is the current version of the file; restore another one instead.',
  'notifications.versions_removed.title': 'Old versions removed',
  'notifications.versions_removed.description':
    'To make room for your upload, the {{count}} oldest versions of your files were deleted.',
};
