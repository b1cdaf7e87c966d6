/** Versions: the panel, the upload name prompt, the retention settings, and what the server answers and notifies. */
export const enVersions: Record<string, string> = {
  'errors.version_current': 'This is the current version of the file; restore another one instead.',
  'notifications.versions_removed.title': 'Old versions removed',
  'notifications.versions_removed.description_one':
    'To make room for your upload, the oldest version of your files was deleted.',
  'notifications.versions_removed.description_other':
    'To make room for your upload, the {{count}} oldest versions of your files were deleted.',

  'versions.menu': 'Versions',
  'versions.title': 'Details and versions',
  'versions.size': 'Size',
  'versions.type': 'Type',
  'versions.modified': 'Modified',
  'versions.count_label': 'Earlier versions',
  'versions.count_one': '{{count}} version',
  'versions.count_other': '{{count}} versions',
  'versions.current': 'Current',
  'versions.saved_by': 'Saved by {{name}}',
  'versions.someone': 'someone with the link',
  'versions.open': 'Open',
  'versions.download': 'Download',
  'versions.restore': 'Restore',
  'versions.delete': 'Delete',
  'versions.cancel': 'Cancel',
  'versions.close': 'Close',
  'versions.confirm_delete': 'Delete this version for good?',
  'versions.restored': 'Version restored. The bytes it replaced are kept as a version.',
  'versions.deleted': 'Version deleted.',
  'versions.failed': 'That did not work. Try again in a moment.',
  'versions.load_failed': 'The versions could not be loaded.',

  'upload_conflict.title': 'A file with this name is already here',
  'upload_conflict.message':
    '“{{name}}” already exists in this folder. Replace it (its current content is kept as a version) or keep both?',
  'upload_conflict.replace': 'Replace',
  'upload_conflict.keep_both': 'Keep both',
  'upload_conflict.apply_all_one': 'Do the same for the other file',
  'upload_conflict.apply_all_other': 'Do the same for the other {{count}} files',

  'admin_settings.others.versions_keep_all_days': 'Keep every version (days)',
  'admin_settings.others.versions_keep_all_days_hint': 'Every saved version of a file is kept this long.',
  'admin_settings.others.versions_keep_daily_days': 'Keep one version a day (days)',
  'admin_settings.others.versions_keep_daily_days_hint':
    'After that, one version per day is kept until this age; older versions are deleted.',
};
