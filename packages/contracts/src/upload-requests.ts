import { z } from 'zod';
import { Email } from './auth';
import { UPLOAD_REQUEST_DEFAULT_HOURS, UPLOAD_REQUEST_MAX_HOURS } from './constants';
import { FolderRef, ItemName } from './files';
import { Avatar } from './user';

/**
 * `active` (nothing received yet), `filling` (files arrived), `filled` (closed by the outsider or the
 * owner), `expired` (its time ran out before it was closed).
 */
export const UploadRequestStatus = z.enum(['active', 'filling', 'filled', 'expired']);
export type UploadRequestStatus = z.infer<typeof UploadRequestStatus>;

/** What the owner writes to the outsider, shown on the request's page as plain text. */
export const UPLOAD_REQUEST_NOTES_MAX = 2000;

/** `POST /api/file-request`: `folder_id` null makes a new folder in the owner's root named after the request. */
export const CreateUploadRequestBody = z.object({
  folder_id: FolderRef.default(null),
  name: ItemName.optional(),
  email: Email.nullish(),
  notes: z.string().trim().max(UPLOAD_REQUEST_NOTES_MAX, 'validation.notes_too_long').nullish(),
  expires_in: z
    .number('validation.upload_request_expiry')
    .int('validation.upload_request_expiry')
    .min(1, 'validation.upload_request_expiry')
    .max(UPLOAD_REQUEST_MAX_HOURS, 'validation.upload_request_expiry')
    .default(UPLOAD_REQUEST_DEFAULT_HOURS),
});
export type CreateUploadRequestBody = z.input<typeof CreateUploadRequestBody>;

export const UploadRequestAttributes = z.object({
  status: UploadRequestStatus,
  name: z.string(),
  notes: z.string().nullable(),
  email: z.string().nullable(),
  expires_at: z.string(),
  /** The outsider's page. */
  link: z.string(),
  created_at: z.string(),
  /** Files received through the request so far (still live in the owner's tree). */
  received: z.number().int(),
  /** Who asks, on the detail only (the outsider's page shows it). */
  owner: z.object({ name: z.string(), avatar: Avatar }).optional(),
});
export type UploadRequestAttributes = z.infer<typeof UploadRequestAttributes>;

export const UploadRequestResource = z.object({
  id: z.string(),
  type: z.literal('upload-request'),
  attributes: UploadRequestAttributes,
  relationships: z.object({
    folder: z.object({
      data: z.object({
        id: z.string(),
        type: z.literal('folder'),
        attributes: z.object({ name: z.string() }),
      }),
    }),
  }),
});
export type UploadRequestResource = z.infer<typeof UploadRequestResource>;

export const UploadRequestDocument = z.object({ data: UploadRequestResource });
export type UploadRequestDocument = z.infer<typeof UploadRequestDocument>;

/** `GET /api/file-request`: the owner's requests, newest first. */
export const UploadRequestList = z.object({ data: z.array(UploadRequestResource) });
export type UploadRequestList = z.infer<typeof UploadRequestList>;
