import { z } from 'zod';
import { Email, Password } from './auth';
import { DisplayName } from './display-text';
import { Role } from './enums';
import { Paginate } from './resource';
import { UserResource } from './user';

/** Capacities are typed in GB of 10^9 bytes, as disks are sold (the server's settings count the same). */
export const BYTES_PER_GB = 1_000_000_000;

/** The most a capacity may be set to, in GB (a petabyte): anything above is a typing slip. */
export const MAX_CAPACITY_GB = 1_000_000;

const Name = DisplayName;
/** GB, fractions allowed (0.5 GB); null means the instance's default. */
const CapacityGb = z.number().min(0, 'validation.capacity').max(MAX_CAPACITY_GB, 'validation.capacity');

/** GET /api/admin/users. */
export const AdminUsersQuery = z.object({
  search: z.string().trim().max(200).optional(),
  role: Role.optional(),
  sort: z.enum(['created_at', 'name', 'email', 'role', 'used']).default('created_at'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

/** Any text: an id that names no account is a 404 like an unknown one. */
export const AdminUserParams = z.object({ id: z.string().max(64) });

/** POST /api/admin/users: the account is made with its e-mail already verified. */
export const AdminCreateUserBody = z.object({
  name: Name,
  email: Email,
  password: Password,
  role: Role.default('user'),
  max_storage_amount: CapacityGb.nullable().optional(),
});
export type AdminCreateUserBody = z.infer<typeof AdminCreateUserBody>;

/** PATCH /api/admin/users/{id}. */
export const AdminUpdateUserBody = z.object({
  name: Name.optional(),
  email: Email.optional(),
  role: Role.optional(),
});
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;

/** PATCH /api/admin/users/{id}/capacity. */
export const AdminCapacityBody = z.object({ max_storage_amount: CapacityGb.nullable() });

/** POST /api/admin/users/{id}/password: a new password, or a reset link mailed to the user. */
export const AdminPasswordBody = z.union([
  z.object({ send_reset_link: z.literal(true) }),
  z
    .object({ password: Password, password_confirmation: z.string() })
    .refine((v) => v.password === v.password_confirmation, {
      message: 'validation.password_confirmation',
      path: ['password_confirmation'],
    }),
]);
export type AdminPasswordBody = z.infer<typeof AdminPasswordBody>;

/** DELETE /api/admin/users/{id}: the user's name, typed to confirm. */
export const AdminDeleteUserBody = z.object({ name: z.string().max(200) });

/** One user of the admin's list: the user resource's attributes, with `meta.usages`. */
export const AdminUserListItem = z.object({
  id: z.string(),
  type: z.literal('user'),
  attributes: UserResource.shape.data.shape.attributes,
  meta: z.object({ usages: z.object({ used: z.number(), capacity: z.number().nullable() }) }),
});
export type AdminUserListItem = z.infer<typeof AdminUserListItem>;

export const AdminUserList = z.object({
  data: z.array(AdminUserListItem),
  meta: z.object({ paginate: Paginate }),
});
export type AdminUserList = z.infer<typeof AdminUserList>;

/** The user's storage by category, for the admin's storage tab. */
export const AdminUserStorage = z.object({
  used: z.number(),
  capacity: z.number().nullable(),
  /** The capacity set for this user in bytes; null when the default applies. */
  custom_capacity: z.number().nullable(),
  categories: z.array(z.object({ category: z.string(), used: z.number() })),
});

/** GET /api/admin/users/{id}: the user resource with its storage and subscription (null until billing). */
export const AdminUserDetail = UserResource.extend({
  meta: UserResource.shape.meta.extend({
    storage: AdminUserStorage,
    subscription: z
      .object({ plan: z.string(), status: z.string(), renews_at: z.string().nullable() })
      .nullable(),
  }),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

export const AuditAction = z.enum([
  'user.created',
  'user.updated',
  'user.capacity_changed',
  'user.password_set',
  'user.reset_link_sent',
  'user.deleted',
]);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditEntry = z.object({
  id: z.string(),
  action: AuditAction,
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  target: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  /** What changed, e.g. `{ role: { from, to } }`; never a secret. */
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});

export const AuditList = z.object({ data: z.array(AuditEntry), meta: z.object({ paginate: Paginate }) });
export type AuditList = z.infer<typeof AuditList>;

const DashboardUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  color: z.string(),
  letter: z.string(),
  avatar: z.string().nullable(),
  created_at: z.string(),
});

const DashboardTransaction = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string() }).nullable(),
  note: z.string(),
  status: z.string(),
  type: z.string(),
  amount: z.string(),
  currency: z.string(),
  created_at: z.string(),
});
export type DashboardTransaction = z.infer<typeof DashboardTransaction>;

export const HealthState = z.enum(['ok', 'failing', 'off']);
export type HealthState = z.infer<typeof HealthState>;
const Health = z.object({ driver: z.string(), state: HealthState });

/** GET /api/admin/dashboard. */
export const AdminDashboard = z.object({
  users: z.object({ total: z.number().int(), admins: z.number().int(), new_30_days: z.number().int() }),
  storage: z.object({ used: z.number(), files: z.number().int() }),
  revenue: z.object({
    /** Null until billing takes payments. */
    currency: z.string().nullable(),
    last_30_days: z.string(),
    /** The last 12 months, oldest first, `YYYY-MM`. */
    by_month: z.array(z.object({ month: z.string(), amount: z.string() })),
  }),
  /** New accounts per month over the same 12 months, for the chart beside revenue. */
  signups_by_month: z.array(z.object({ month: z.string(), count: z.number().int() })),
  latest_users: z.array(DashboardUser),
  latest_transactions: z.array(DashboardTransaction),
  versions: z.object({ app: z.string(), node: z.string(), database: z.string() }),
  health: z.object({ queue: Health, realtime: Health, storage: Health, mail: Health }),
  /** Where the whole audit log is read. */
  links: z.object({ audit: z.string() }),
});
export type AdminDashboard = z.infer<typeof AdminDashboard>;
