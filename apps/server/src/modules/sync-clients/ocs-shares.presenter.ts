import type { ShareResource } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import type { ItemRow } from '../files/files.tables';

/** Nextcloud's share type of a public link, the only kind Atelier has. */
export const PUBLIC_LINK = 3;
/** Nextcloud's permissions of a link: read (1), or read, update, create and delete (15). */
const PERMISSIONS = { visitor: 1, editor: 15 } as const;
/**
 * Nextcloud sends a protected link's password hash in `share_with`, and the clients take any text
 * there as "has a password"; Atelier never hands out the hash, so a mask stands for it.
 */
const PASSWORD_MASK = '********';

/** A link as Nextcloud's share API describes it (the fields the desktop and mobile apps read). */
export type OcsShare = ReturnType<typeof presentOcsShare>;

/** The last day a link works, as Nextcloud writes it (`YYYY-MM-DD 00:00:00`); it ends at the next midnight, UTC. */
function expirationOf(expiresAt: string | null): string | null {
  if (expiresAt === null) return null;
  return `${new Date(Date.parse(expiresAt) - 1).toISOString().slice(0, 10)} 00:00:00`;
}

export function presentOcsShare(link: ShareResource, item: ItemRow, path: string, owner: UserRow) {
  const { attributes } = link;
  const isFolder = item.type === 'folder';
  const password = attributes.protected ? PASSWORD_MASK : null;
  return {
    id: link.id,
    share_type: PUBLIC_LINK,
    uid_owner: owner.id,
    displayname_owner: owner.name,
    permissions: PERMISSIONS[attributes.permission],
    can_edit: true,
    can_delete: true,
    stime: Math.floor(Date.parse(attributes.created_at) / 1000),
    parent: null,
    expiration: expirationOf(attributes.expires_at),
    token: attributes.token,
    uid_file_owner: owner.id,
    displayname_file_owner: owner.name,
    note: '',
    label: '',
    path,
    item_type: isFolder ? 'folder' : 'file',
    mimetype: isFolder ? 'httpd/unix-directory' : (item.mimetype ?? 'application/octet-stream'),
    item_source: item.id,
    file_source: item.id,
    file_parent: item.parent_id ?? '',
    file_target: `/${item.name}`,
    share_with: password,
    share_with_displayname: null,
    password,
    send_password_by_talk: false,
    url: attributes.link,
    mail_send: 0,
    hide_download: 0,
  };
}

/**
 * The share menu's part of the capabilities (a CapabilityContribution): public links, with an
 * optional password and expiry and uploads into a shared folder; one link per item, none shared
 * with people, groups or other servers.
 */
export const publicLinkCapabilities = () => ({
  files_sharing: {
    api_enabled: true,
    public: {
      enabled: true,
      password: { enforced: false, askForOptionalPassword: false },
      expire_date: { enabled: false, enforced: false },
      multiple_links: false,
      upload: true,
      upload_files_drop: false,
      send_mail: false,
    },
    resharing: false,
    user: { send_mail: false },
    group_sharing: false,
    federation: { outgoing: false, incoming: false },
  },
});
