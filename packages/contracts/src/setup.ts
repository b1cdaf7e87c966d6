import { z } from 'zod';
import { Email, Password } from './auth';
import { ACCOUNT_AGE_CUTOFF } from './constants';
import { DisplayName } from './display-text';
import { SubscriptionType } from './enums';

export const StatusCheck = z.object({
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })),
});
export type StatusCheck = z.infer<typeof StatusCheck>;

/** Licence codes look like UUIDs (8-4-4-4-12 hex). */
export const PURCHASE_CODE_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const PurchaseCodeBody = z.object({
  purchaseCode: z.string().trim().regex(PURCHASE_CODE_PATTERN, 'validation.purchase_code'),
});

export const DatabaseSetupBody = z.discriminatedUnion('connection', [
  z.object({ connection: z.literal('sqlite') }),
  z.object({
    connection: z.literal('pgsql'),
    host: z.string().min(1),
    port: z.coerce.number().int().min(1).max(65535).default(5432),
    database: z.string().min(1),
    username: z.string().min(1),
    password: z.string().default(''),
  }),
]);
export type DatabaseSetupBody = z.infer<typeof DatabaseSetupBody>;

export const StorageSetup = z.discriminatedUnion('driver', [
  z.object({ driver: z.literal('local') }),
  z.object({
    driver: z.literal('s3'),
    endpoint: z.string().url().optional(),
    region: z.string().min(1),
    bucket: z.string().min(1),
    accessKeyId: z.string().min(1),
    secretAccessKey: z.string().min(1),
    forcePathStyle: z.boolean().default(true),
  }),
]);
export const MailSetup = z.discriminatedUnion('driver', [
  z.object({ driver: z.literal('log') }),
  z.object({ driver: z.literal('smtp'), url: z.string().min(1), from: Email.optional() }),
]);
export const BroadcastingSetup = z.object({ driver: z.enum(['socket.io', 'null']) });
export const EnvironmentSetupBody = z.object({
  storage: StorageSetup,
  mail: MailSetup,
  broadcasting: BroadcastingSetup,
});
export type EnvironmentSetupBody = z.infer<typeof EnvironmentSetupBody>;

export const AppSetupBody = z.object({
  title: z.string().trim().min(1).max(120),
  description: z.string().trim().max(500).default(''),
  contactEmail: Email,
  subscriptionType: SubscriptionType.default('none'),
  registration: z.boolean().default(true),
  storageLimitation: z.boolean().default(true),
  /** Default storage per user in GB. */
  defaultStorage: z.coerce.number().min(0).max(1_000_000).default(5),
  defaultTeamMembers: z.coerce.number().int().min(-1).default(-1),
  /** Accounts created from this day on get the studio only, unless fileManagerForAll. */
  fileManagerCutoff: z.iso.date('validation.date').default(ACCOUNT_AGE_CUTOFF),
  fileManagerForAll: z.boolean().default(false),
});
export type AppSetupBody = z.infer<typeof AppSetupBody>;

export const AdminSetupBody = z
  .object({
    name: DisplayName,
    email: Email,
    password: Password,
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
export type AdminSetupBody = z.infer<typeof AdminSetupBody>;
