import { z } from 'zod';

export const Role = z.enum(['admin', 'user']);
export type Role = z.infer<typeof Role>;
export const SubscriptionType = z.enum(['metered', 'fixed', 'none']);
export type SubscriptionType = z.infer<typeof SubscriptionType>;
export const ThemeMode = z.enum(['light', 'dark', 'system']);
export type ThemeMode = z.infer<typeof ThemeMode>;
export const EmojiType = z.enum(['twemoji', 'applemoji']);
export type EmojiType = z.infer<typeof EmojiType>;
export const TransactionType = z.enum(['credit', 'charge', 'withdrawal']);
export type TransactionType = z.infer<typeof TransactionType>;
export const TransactionStatus = z.enum([
  'successful',
  'completed',
  'cancelled',
  'stopped',
  'failed',
  'error',
]);
export type TransactionStatus = z.infer<typeof TransactionStatus>;
export const SubscriptionStatus = z.enum(['active', 'cancelled', 'completed']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;
export const PaymentDriver = z.enum(['stripe', 'paypal', 'paystack']);
export type PaymentDriver = z.infer<typeof PaymentDriver>;
export const PlanStatus = z.enum(['active', 'archived']);
export type PlanStatus = z.infer<typeof PlanStatus>;
export const Interval = z.enum(['month', 'year']);
export type Interval = z.infer<typeof Interval>;
export const TeamPermission = z.enum(['can_edit', 'can_view']);
export type TeamPermission = z.infer<typeof TeamPermission>;
export const SharePermission = z.enum(['editor', 'visitor']);
export type SharePermission = z.infer<typeof SharePermission>;
export const BroadcastingDriver = z.enum(['pusher', 'reverb', 'socket.io', 'null']);
export type BroadcastingDriver = z.infer<typeof BroadcastingDriver>;
export const InstallationState = z.enum(['installation-needed', 'installation-done']);
export type InstallationState = z.infer<typeof InstallationState>;
export const NotificationCategory = z.enum([
  'gift',
  'team-invitation',
  'subscription-created',
  'billing-alert',
  'insufficient-balance',
  'payment-alert',
  'file-request',
  'remote-upload-done',
  'security-alert',
  'render-done',
  'render-failed',
  'versions-removed',
]);
export const StorageCategory = z.enum(['images', 'videos', 'audios', 'documents', 'others']);
