import type {
  AdminDashboard,
  AdminUserListItem,
  AuditAction,
  AuditEntry,
  FileManagerAccess,
} from '@atelier/contracts';
import type { UserRow } from '../../db/schema';
import { avatarLetter, presentAvatar, presentUserAttributes } from '../users/users.presenter';
import type { AuditLogRow } from './admin.tables';
import type { ListedUser } from '../users/users.ports';

export function presentListedUser(
  user: ListedUser,
  capacity: number | null,
  fileManager: FileManagerAccess,
): AdminUserListItem {
  return {
    id: user.id,
    type: 'user',
    attributes: presentUserAttributes(user, fileManager),
    meta: { usages: { used: user.used, capacity } },
  };
}

export function presentDashboardUser(user: UserRow): AdminDashboard['latest_users'][number] {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    color: user.color,
    letter: avatarLetter(user),
    avatar: presentAvatar(user.avatar).sm,
    created_at: user.created_at,
  };
}

export function presentAuditEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    action: row.action as AuditAction,
    actor: { id: row.actor_id, name: row.actor_name },
    target: { id: row.target_id, name: row.target_name },
    details: JSON.parse(row.details) as Record<string, unknown>,
    created_at: row.created_at,
  };
}
