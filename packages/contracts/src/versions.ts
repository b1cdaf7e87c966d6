import { z } from 'zod';

/**
 * What an upload does with a name the folder already holds (every chunk form's `conflict` field):
 * `keep-both` names the new file `name (1).ext`, `name (2).ext`…; `replace` gives the existing file
 * the new bytes and keeps the ones it had as a version.
 */
export const UPLOAD_CONFLICTS = ['keep-both', 'replace'] as const;
export const UploadConflict = z.enum(UPLOAD_CONFLICTS);
export type UploadConflict = z.infer<typeof UploadConflict>;

/** One of a file's versions; the entry with `current: true` is the bytes the file has now. */
export const VersionResource = z.object({
  id: z.string(),
  type: z.literal('version'),
  attributes: z.object({
    size: z.number(),
    /** When these bytes were saved. */
    created_at: z.string(),
    current: z.boolean(),
    /** Who saved them; a null name for an anonymous sender (a link's or an upload request's). */
    author: z.object({ name: z.string().nullable() }),
  }),
});
export type VersionResource = z.infer<typeof VersionResource>;

/** GET /api/files/{id}/versions: newest first, the current bytes first of all. */
export const VersionList = z.object({ data: z.array(VersionResource) });
export type VersionList = z.infer<typeof VersionList>;

export const VersionParams = z.object({ id: z.string().max(64), versionId: z.string().max(64) });
