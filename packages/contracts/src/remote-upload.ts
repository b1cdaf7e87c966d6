import { z } from 'zod';
import { FolderRef } from './files';
import { UploadConflict } from './versions';

/** Addresses one remote upload may fetch. */
export const REMOTE_UPLOAD_MAX_URLS = 50;
/** The longest address accepted; browsers and servers rarely take more. */
export const REMOTE_URL_MAX_LENGTH = 2048;

/**
 * One address to fetch: http or https. Where it points is checked by the server when it connects
 * (only public addresses, see docs/security.md), not here.
 */
export const RemoteUrl = z
  .string()
  .trim()
  .min(1, 'validation.remote_url')
  .max(REMOTE_URL_MAX_LENGTH, 'validation.remote_url')
  .pipe(z.url({ protocol: /^https?$/, message: 'validation.remote_url' }));

/** `POST /api/upload/remote`: the files behind these addresses are fetched into the folder. */
export const RemoteUploadBody = z.object({
  urls: z
    .array(RemoteUrl, 'validation.remote_urls_count')
    .min(1, 'validation.remote_urls_count')
    .max(REMOTE_UPLOAD_MAX_URLS, 'validation.remote_urls_count'),
  parent_id: FolderRef,
  /** What a fetched file does to a file of its name in the folder (as the chunk forms' `conflict`). */
  conflict: UploadConflict.default('keep-both'),
});
export type RemoteUploadBody = z.infer<typeof RemoteUploadBody>;

/** The 202 answer: the upload's id (the realtime events name it) and how many addresses it fetches. */
export const RemoteUploadAccepted = z.object({
  data: z.object({ id: z.string(), total: z.number().int() }),
});
export type RemoteUploadAccepted = z.infer<typeof RemoteUploadAccepted>;
