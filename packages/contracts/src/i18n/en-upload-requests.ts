/** Strings of upload requests on the web: the owner's dialog and list, and the outsider's page (flat dotted keys). */
export const enUploadRequests: Record<string, string> = {
  // Navigation
  'pages.upload_requests': 'Upload requests',

  // The owner's side: item menu, upload menu and the dialog
  'upload_requests.area': 'Upload request',
  'upload_requests.request_files': 'Request files',
  'upload_requests.new_request': 'Upload request',
  'upload_requests.dialog_title': 'New upload request',
  'upload_requests.dialog_title_folder': 'Request files for \u201c{{name}}\u201d',
  'upload_requests.dialog_lead_new':
    'Anyone with the link can send you files, without an account. They arrive in a new folder of My files named after the request.',
  'upload_requests.dialog_lead_folder':
    'Anyone with the link can send files into this folder, without an account. They see only what they send, never what the folder already holds.',
  'upload_requests.name': 'Name',
  'upload_requests.name_placeholder': 'Signed contracts',
  'upload_requests.name_hint_new': 'The new folder takes this name.',
  'upload_requests.name_hint_folder': 'What the person you ask sees as the title.',
  'upload_requests.notes': 'Notes for them',
  'upload_requests.notes_placeholder': 'What should they send? Anything they should know?',
  'upload_requests.email': 'Their e-mail (optional)',
  'upload_requests.email_hint': 'We e-mail them the link.',
  'upload_requests.lifetime': 'Open for',
  'upload_requests.create': 'Create request',
  'upload_requests.created': 'The request is open until {{date}}.',
  'upload_requests.link_hint':
    'Send this link to the person you ask. It stops taking files when they say they are done, when you close it, or at the end of its time.',
  'upload_requests.emailed': 'The link was e-mailed to {{email}}.',
  'upload_requests.open_folder': 'Open folder',

  // The owner's list
  'upload_requests.title': 'Upload requests',
  'upload_requests.about.title': 'Sending files through an upload request',
  'upload_requests.about.lead':
    'Someone who keeps their files on {{name}} can ask you for files with a link. You open it, drop your files, and say when you are done; no account is needed.',
  'upload_requests.about.link_title': 'Open the whole link you were sent',
  'upload_requests.about.link_body':
    'The link ends with a long code after /request/. This address has none: open the link from the message again, or ask the person for it.',
  'upload_requests.about.private_title': 'You see only what you send',
  'upload_requests.about.private_body':
    'Nothing of the person\u2019s files is shown to you, and the files you send go straight to the folder they chose.',
  'upload_requests.about.ends_title': 'A request ends',
  'upload_requests.about.ends_body':
    'It stops taking files when you say you are done, when the person closes it, or when its time runs out. Ask them for a new link then.',
  'upload_requests.lead':
    'Ask anyone for files through a link, without an account. Each request fills one folder; you are told when files arrive.',
  'upload_requests.list_label': 'Your upload requests',
  'upload_requests.create_new': 'New request',
  'upload_requests.load_failed': 'Your upload requests could not be loaded.',
  'upload_requests.empty_list_title': 'No upload requests yet',
  'upload_requests.empty_list_body':
    'Ask a client or a colleague for files: they upload through a link, without an account, and see only what they send.',
  'upload_requests.status.active': 'Active',
  'upload_requests.status.filling': 'Receiving',
  'upload_requests.status.filled': 'Closed',
  'upload_requests.status.expired': 'Expired',
  'upload_requests.received_one': '{{count}} file received',
  'upload_requests.received_other': '{{count}} files received',
  'upload_requests.open_until': 'Open until {{date}}',
  'upload_requests.expired_on': 'Expired on {{date}}',
  'upload_requests.created_on': 'Created on {{date}}',
  'upload_requests.copy_link': 'Copy link',
  'upload_requests.close': 'Close',
  'upload_requests.close_named': 'Close \u201c{{name}}\u201d',
  'upload_requests.confirm_close.title': 'Close this upload request?',
  'upload_requests.confirm_close.message':
    'The link stops taking files at once. What arrived stays in \u201c{{folder}}\u201d.',
  'upload_requests.closed': 'The upload request was closed.',

  // The outsider's page
  'upload_requests.requested_by': 'Requested by',
  'upload_requests.asks_you': '{{name}} asks you to send files.',
  'upload_requests.private_hint': 'Only you and {{name}} see what you send here.',
  'upload_requests.what_you_sent': 'What you sent',
  'upload_requests.your_files': 'Your files',
  'upload_requests.empty_title': 'Nothing sent yet',
  'upload_requests.empty_body':
    'Drop files or whole folders here, or use Upload. You can rename, move or remove what you sent until you are done.',
  'upload_requests.done': 'I\u2019m done',
  'upload_requests.done_wait': 'Wait until your files are uploaded.',
  'upload_requests.confirm_done.title': 'Are you done?',
  'upload_requests.confirm_done.message':
    '{{name}} is told that your files are ready. Nothing more can be sent or changed through this link afterwards.',
  'upload_requests.thanks_title': 'Thank you!',
  'upload_requests.thanks_body':
    '{{name}} has your files and was told you are done. You can close this page.',
  'upload_requests.closed_title': 'This upload request is closed',
  'upload_requests.closed_body':
    'It takes no more files. If you still have something to send, ask {{name}} for a new link.',
  'upload_requests.expired_title': 'This upload request has expired',
  'upload_requests.expired_body':
    'It stopped taking files on {{date}}. If you still have something to send, ask {{name}} for a new link.',
  'upload_requests.visit_failed': 'This upload request could not be opened',
};
