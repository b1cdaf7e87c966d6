import type { AdminUsersQuery, Role } from '@atelier/contracts';
import type { UserRow } from '../../db/schema';

/** An account as the administration lists it: its row and the bytes it uses. */
export interface ListedUser extends UserRow {
  used: number;
}

/**
 * What the administration reads and writes of accounts (the list, the dashboard's counts, roles,
 * deletion). The users module keeps the table and implements it; the admin module is handed it.
 */
export interface AccountDirectory {
  list(query: AdminUsersQuery): Promise<{ rows: ListedUser[]; total: number }>;
  countUsers(since: string): Promise<{ total: number; admins: number; recent: number }>;
  newest(limit: number): Promise<UserRow[]>;
  createdSince(since: string): Promise<string[]>;
  /** Changes the role unless it would leave no admin; false when refused. */
  setRoleKeepingAnAdmin(id: string, role: Role, now: string): Promise<boolean>;
  /** Inside a unit of work: whether an admin other than this account remains, taking turns with other such checks. */
  anotherAdminRemains(id: string): Promise<boolean>;
  deleteUser(userId: string): Promise<void>;
}
