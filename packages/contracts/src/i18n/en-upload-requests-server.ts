/** Messages the server answers upload-request calls with, and the e-mails and notifications they send. */
export const enUploadRequestsServer: Record<string, string> = {
  'validation.upload_request_expiry': 'Choose a lifetime between 1 hour and 30 days.',
  'validation.notes_too_long': 'Keep the notes under 2,000 characters.',
  'upload_request.filled': 'This upload request is closed. Nothing more can be sent through it.',
  'upload_request.expired': 'This upload request has expired. Nothing more can be sent through it.',
  'upload_request.default_name': 'Upload request {{date}}',
  'mail.upload_request.subject': '{{owner}} asks you to send files',
  'mail.upload_request.body':
    'Hello,\n\n{{owner}} asks you to send files to \u201c{{name}}\u201d on {{app}}.\n{{notes}}\nUpload them here until {{expires}}:\n\n{{link}}\n\nYou will not see what the folder already holds; only what you send.\n',
  'notifications.file_request.arriving.title': 'Files are arriving',
  'notifications.file_request.arriving.description':
    'The first file arrived through your upload request \u201c{{name}}\u201d.',
  'notifications.file_request.filled.title': 'Upload request closed',
  'notifications.file_request.filled.description_one':
    'Your upload request \u201c{{name}}\u201d was closed with {{count}} file received.',
  'notifications.file_request.filled.description_other':
    'Your upload request \u201c{{name}}\u201d was closed with {{count}} files received.',
  'notifications.file_request.button': 'Open folder',
  'mail.upload_request_arriving.subject': 'Files are arriving for \u201c{{name}}\u201d',
  'mail.upload_request_arriving.body':
    'Hello,\n\nThe first file arrived through your upload request \u201c{{name}}\u201d on {{app}}. More may follow until it is closed.\n\nOpen the folder:\n\n{{link}}\n',
  'mail.upload_request_filled.subject': 'Upload request \u201c{{name}}\u201d closed',
  'mail.upload_request_filled.body_one':
    'Hello,\n\nYour upload request \u201c{{name}}\u201d on {{app}} was closed with {{count}} file received.\n\nOpen the folder:\n\n{{link}}\n',
  'mail.upload_request_filled.body_other':
    'Hello,\n\nYour upload request \u201c{{name}}\u201d on {{app}} was closed with {{count}} files received.\n\nOpen the folder:\n\n{{link}}\n',
};
