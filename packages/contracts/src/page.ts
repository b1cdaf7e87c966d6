import { z } from 'zod';

/** A page's address: lowercase words joined by hyphens (`cookie-policy`). */
export const PAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const PageAttributes = z.object({
  slug: z.string(),
  title: z.string(),
  /** The Markdown the admin wrote. */
  content: z.string(),
  /** The content rendered and sanitised by the server: safe to insert as HTML. */
  html: z.string(),
  /** Hidden pages are not found by the public; admins still see them. */
  visibility: z.boolean(),
  updated_at: z.string(),
});
export type PageAttributes = z.infer<typeof PageAttributes>;

const PageData = z.object({ id: z.string(), type: z.literal('page'), attributes: PageAttributes });

/** GET /api/pages/{slug}: a content page (terms, privacy, cookie policy...). */
export const PageResource = z.object({ data: PageData });
export type PageResource = z.infer<typeof PageResource>;

export const PageList = z.object({ data: z.array(PageData) });
export type PageList = z.infer<typeof PageList>;

const PageTitle = z.string().trim().min(1).max(200);
/** Markdown; the longest legal text an instance is likely to publish fits many times over. */
const PageContent = z.string().max(200_000);

export const UpdatePageBody = z
  .object({ title: PageTitle, content: PageContent, visibility: z.boolean() })
  .partial();
export type UpdatePageBody = z.infer<typeof UpdatePageBody>;

export const CreatePageBody = z.object({
  slug: z.string().max(120).regex(PAGE_SLUG_PATTERN),
  title: PageTitle,
  content: PageContent,
  visibility: z.boolean(),
});
export type CreatePageBody = z.infer<typeof CreatePageBody>;

export const PagePreviewBody = z.object({ content: PageContent });
export const PagePreview = z.object({ data: z.object({ html: z.string() }) });
export type PagePreview = z.infer<typeof PagePreview>;
