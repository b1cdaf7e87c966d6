import type {
  AdminCreateUserBody,
  AdminPasswordBody,
  AdminUpdateUserBody,
  AdminUserDetail,
  AdminUserList,
  AdminUsersQuery,
  AuditList,
} from '@atelier/contracts';
import type { UnitOfWork } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Broadcaster } from '../../realtime/realtime.server';
import type { AuthService } from '../auth/auth.service';
import type { SessionsService } from '../auth/sessions.service';
import type { ItemReader } from '../files/files.ports';
import type { FilesService } from '../files/files.service';
import { bytesByCategory } from '../files/storage-categories';
import { paginate } from '../files/files.presenter';
import { fileManagerAccess, GIGABYTE } from '../settings/settings.defaults';
import type { SettingsService } from '../settings/settings.service';
import type { AvatarService } from '../account/avatar.service';
import { capacityOf } from '../users/account-limits.service';
import type { UsersService } from '../users/users.service';
import type { ChunkedUploadsService } from '../webdav/webdav.chunked-uploads.service';
import { presentAuditEntry, presentListedUser } from './admin.presenter';
import type { AccountDirectory } from '../users/users.ports';
import type { AuditLogRepository } from './audit-log.repository';

export interface AdminUsersDeps {
  accounts: AccountDirectory;
  audit: AuditLogRepository;
  users: UsersService;
  items: ItemReader;
  /** Deletes an account's items and unfinished uploads, and has their storage objects deleted by a job. */
  files: Pick<FilesService, 'purgeOwner'>;
  /** The stored sizes of an account's avatar, read in the unit of work that deletes it. */
  avatars: Pick<AvatarService, 'lockedObjectKeys'>;
  /** The objects of an account's unfinished WebDAV chunked transfers (webdav module). */
  chunkedUploads: Pick<ChunkedUploadsService, 'chunkObjectsOf'>;
  settings: SettingsService;
  sessions: SessionsService;
  auth: AuthService;
  realtime: Broadcaster & { disconnectUser(userId: string): void };
  /** The storage (GB) fixed plans give these accounts now (billing module). */
  planStorage(userIds: string[]): Promise<Map<string, number>>;
  /** Stops the account's renewals at its payment provider (billing module); throws when it cannot. */
  stopRenewing(userId: string): Promise<void>;
  /** The account's subscription in a line (billing module). */
  subscriptionOf(userId: string): Promise<{ plan: string; status: string; renews_at: string | null } | null>;
  units: UnitOfWork;
  now: () => Date;
}

const gigabytesToBytes = (gb: number | null | undefined) => (gb == null ? null : Math.round(gb * GIGABYTE));

/**
 * What an administrator does to accounts. Every change takes effect on the user's next request
 * (limits and role are read from the row each time), reaches their open tabs through `user.updated`,
 * and is written to the audit log.
 */
export class AdminUsersService {
  constructor(private readonly deps: AdminUsersDeps) {}

  async list(query: AdminUsersQuery): Promise<AdminUserList> {
    const [{ rows, total }, settings] = await Promise.all([
      this.deps.accounts.list(query),
      this.deps.settings.all(),
    ]);
    const plans = await this.deps.planStorage(rows.map((row) => row.id));
    return {
      data: rows.map((row) =>
        presentListedUser(
          row,
          capacityOf(row, settings, plans.get(row.id) ?? null),
          fileManagerAccess(settings),
        ),
      ),
      meta: { paginate: paginate(total, query.page, query.per_page) },
    };
  }

  async detail(id: string): Promise<AdminUserDetail> {
    const user = await this.find(id);
    const [resource, stored, subscription] = await Promise.all([
      this.deps.users.resource(user),
      this.deps.items.usageByMimetype(user.id),
      this.deps.subscriptionOf(user.id),
    ]);
    const { categories } = bytesByCategory(stored);
    return {
      ...resource,
      meta: {
        ...resource.meta,
        storage: {
          used: resource.meta.usages.used,
          capacity: resource.meta.usages.capacity,
          custom_capacity: user.storage_capacity,
          categories: [...categories].map(([category, used]) => ({ category, used })),
        },
        subscription,
      },
    };
  }

  async create(admin: UserRow, body: AdminCreateUserBody): Promise<UserRow> {
    const user = await this.deps.users.create({
      name: body.name,
      email: body.email,
      password: body.password,
      role: body.role,
      emailVerified: true,
      storageCapacity: gigabytesToBytes(body.max_storage_amount),
    });
    await this.deps.audit.record(admin, 'user.created', user, {
      email: user.email,
      role: user.role,
      max_storage_amount: body.max_storage_amount ?? null,
    });
    return user;
  }

  async update(admin: UserRow, id: string, body: AdminUpdateUserBody): Promise<UserRow> {
    const user = await this.find(id);
    const changes: Record<string, { from: string; to: string }> = {};
    const now = this.deps.now().toISOString();
    const profile: Partial<Pick<UserRow, 'name' | 'email'>> = {};
    for (const field of ['name', 'email'] as const) {
      const value = body[field];
      if (value === undefined || value === user[field]) continue;
      profile[field] = value;
      changes[field] = { from: user[field], to: value };
    }
    // All or nothing: a role changed by a request answered with an error (a taken e-mail) would be a
    // change of privileges the admin was told failed, and that the audit log never shows.
    await this.deps.units.transaction(async () => {
      if (body.role !== undefined && body.role !== user.role) {
        if (!(await this.deps.accounts.setRoleKeepingAnAdmin(user.id, body.role, now)))
          throw AppError.invalid('role', 'admin_users.last_admin');
        changes.role = { from: user.role, to: body.role };
      }
      if (Object.keys(profile).length > 0) await this.deps.users.updateProfile(user.id, profile);
      // An account moved away from a mailbox (lost, or no longer the person's) leaves it nothing.
      if (profile.email !== undefined) await this.deps.auth.forgetMailedLinks(user.id);
      if (Object.keys(changes).length > 0) await this.changed(admin, 'user.updated', user, changes);
    });
    return (await this.deps.users.findById(user.id))!;
  }

  async setCapacity(admin: UserRow, id: string, gigabytes: number | null): Promise<UserRow> {
    const user = await this.find(id);
    const capacity = gigabytesToBytes(gigabytes);
    await this.deps.users.setCapacity(user.id, capacity);
    await this.changed(admin, 'user.capacity_changed', user, {
      max_storage_amount: {
        from: user.storage_capacity === null ? null : user.storage_capacity / GIGABYTE,
        to: gigabytes,
      },
    });
    return { ...user, storage_capacity: capacity };
  }

  /** Sets a new password or mails a reset link; either way every session of the user ends. */
  async password(admin: UserRow, id: string, body: AdminPasswordBody): Promise<void> {
    const user = await this.find(id);
    if ('send_reset_link' in body) {
      await this.deps.auth.mailPasswordReset(user.email);
      await this.deps.sessions.destroyAllFor(user.id);
      await this.deps.audit.record(admin, 'user.reset_link_sent', user);
      return;
    }
    // The new password, the end of every way in and the audit record commit together.
    await this.deps.units.transaction(async () => {
      await this.deps.auth.replacePassword(user.id, body.password);
      await this.deps.sessions.destroyAllFor(user.id);
      await this.deps.audit.record(admin, 'user.password_set', user);
    });
  }

  /**
   * Deletes the account and everything it owns at once; the storage objects are deleted by a job.
   * The name must be typed as it is; an administrator cannot delete itself, nor the last admin.
   */
  async remove(admin: UserRow, id: string, typedName: string): Promise<void> {
    const user = await this.find(id);
    if (user.id === admin.id) throw AppError.invalid('name', 'admin_users.delete_self');
    if (typedName.trim() !== user.name.trim()) throw AppError.invalid('name', 'admin_users.delete_name');
    // Checked here before the provider is told, and again below where it counts.
    if (user.role === 'admin') {
      const { admins } = await this.deps.accounts.countUsers(this.deps.now().toISOString());
      if (admins <= 1) throw AppError.invalid('name', 'admin_users.last_admin');
    }
    // Before anything is deleted: a provider that cannot be reached leaves the account as it was
    // (and says so), rather than an account gone whose card is still charged every month.
    await this.deps.stopRenewing(user.id);
    // The account, its items (the files module deletes them and records their objects and its
    // avatar's for its purge job), its audit entry and that job commit together: no account is gone
    // with its storage left behind for good, or deleted without a trace in the log.
    await this.deps.units.transaction(async () => {
      // Two admins deleting each other at once: the second waits for the first and counts after it.
      if (user.role === 'admin' && !(await this.deps.accounts.anotherAdminRemains(user.id)))
        throw AppError.invalid('name', 'admin_users.last_admin');
      // The avatar as stored now, not as read above: one replaced since would leave its sizes behind.
      await this.deps.files.purgeOwner(user.id, async () => [
        ...(await this.deps.avatars.lockedObjectKeys(user.id)),
        ...(await this.deps.chunkedUploads.chunkObjectsOf(user.id)),
      ]);
      await this.deps.accounts.deleteUser(user.id);
      await this.deps.audit.record(admin, 'user.deleted', user, { email: user.email, role: user.role });
    });
    this.deps.realtime.disconnectUser(user.id);
  }

  async auditLog(page: number, perPage: number): Promise<AuditList> {
    const { rows, total } = await this.deps.audit.page(page, perPage);
    return { data: rows.map(presentAuditEntry), meta: { paginate: paginate(total, page, perPage) } };
  }

  private async find(id: string): Promise<UserRow> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new AppError('not_found', 'errors.not_found');
    return user;
  }

  /** Audits a change of the account and tells the user's open tabs to fetch it again. */
  private async changed(
    admin: UserRow,
    action: 'user.updated' | 'user.capacity_changed',
    user: UserRow,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.record(admin, action, user, details);
    await this.deps.units.afterCommit(() =>
      this.deps.realtime.emitToUser(user.id, 'user.updated', { user_id: user.id }),
    );
  }
}
