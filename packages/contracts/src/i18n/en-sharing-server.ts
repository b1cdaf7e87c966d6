/** Messages the server answers share-link calls with, and the e-mail that carries a link (flat dotted keys). */
export const enSharingServer: Record<string, string> = {
  'sharing.already_shared': 'This item already has a link. Edit that link or revoke it first.',
  'sharing.file_visitor_only': 'A file can only be shared for viewing.',
  'sharing.expired': 'This link has expired. Ask {{owner}} for a new one.',
  'sharing.revoked': '{{owner}} stopped sharing this link. Ask them for a new one.',
  'sharing.expires_at_past': 'Choose a day that is still ahead.',
  'sharing.expires_at_far': 'A link can last at most a year; choose an earlier day.',
  'sharing.password_required': 'This link is protected. Enter its password to open it.',
  'sharing.wrong_password': 'The password is not right.',
  'sharing.throttled': 'Too many wrong passwords. Try again in {{seconds}} seconds.',
  'notifications.share_guessing.title': 'Someone is guessing the password of a link',
  'notifications.share_guessing.description':
    'Many wrong passwords were tried on your link to \u201c{{item}}\u201d, from several places. Further tries are held back for a while. If the link is still needed, give it a longer password; otherwise revoke it.',
  'notifications.share_guessing.button': 'My shared items',
  'mail.share_link.subject': '{{owner}} shared \u201c{{item}}\u201d with you',
  'mail.share_link.body':
    'Hello,\n\n{{owner}} shared \u201c{{item}}\u201d with you on {{app}}. Open it here:\n\n{{link}}\n\nIf the link asks for a password, ask {{owner}} for it.\n',
};
