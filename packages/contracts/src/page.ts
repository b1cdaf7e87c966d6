import { z } from 'zod';

/** GET /api/pages/{slug}: a content page (terms, privacy, cookie policy...). */
export const PageResource = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('page'),
    attributes: z.object({
      slug: z.string(),
      title: z.string(),
      content: z.string(),
      updated_at: z.string(),
    }),
  }),
});
export type PageResource = z.infer<typeof PageResource>;
