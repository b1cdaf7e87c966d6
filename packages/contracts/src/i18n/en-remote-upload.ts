/** Remote upload: the dialog, the progress bar and its toasts, and what the server answers and notifies. */
export const enRemoteUpload: Record<string, string> = {
  'validation.remote_url': 'Use a full address starting with http:// or https://.',
  'validation.remote_urls_count': 'Paste between 1 and 50 addresses.',
  'notifications.remote_upload.title': 'Remote upload finished',
  'notifications.remote_upload.description_one': 'The file from your link is in the folder.',
  'notifications.remote_upload.description_other': 'All {{count}} files from your links are in the folder.',
  'notifications.remote_upload.description_failed':
    '{{stored}} of {{total}} files from your links are in the folder; {{failed}} could not be downloaded.',
  'notifications.remote_upload.button': 'Open folder',

  'remote_upload.menu': 'Upload from URLs',
  'remote_upload.title': 'Upload from URLs',
  'remote_upload.description':
    'Paste the addresses of files on the web, one per line. They are downloaded into this folder in the background, with the same limits as your uploads.',
  'remote_upload.urls_label': 'Addresses',
  'remote_upload.urls_placeholder': 'https://example.com/photo.jpg\nhttps://example.com/report.pdf',
  'remote_upload.count': '{{count}} of {{max}} addresses',
  'remote_upload.line_invalid': 'Line {{line}} is not an http:// or https:// address.',
  'remote_upload.empty': 'Paste at least one address.',
  'remote_upload.too_many': 'Paste at most {{max}} addresses at once.',
  'remote_upload.submit': 'Download',
  'remote_upload.cancel': 'Cancel',
  'remote_upload.progress_title': 'Downloading from URLs',
  'remote_upload.progress_done': 'Downloaded from URLs',
  'remote_upload.progress': '{{processed}} of {{total}} processed',
  'remote_upload.failed_one': '{{count}} failed',
  'remote_upload.failed_other': '{{count}} failed',
  'remote_upload.progress_label': 'Remote upload progress',
  'toaster.remote_download_finished': 'Your files from URLs were downloaded.',
  'toaster.remote_download_finished_failed': '{{failed}} of {{total}} addresses could not be downloaded.',
};
