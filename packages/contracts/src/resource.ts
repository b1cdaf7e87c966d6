import { z } from 'zod';

/** The description's JSON:API-like envelope: { data: { id, type, attributes, relationships }, meta }. */
export function resource<T extends z.ZodTypeAny, R extends z.ZodTypeAny>(
  type: string,
  attributes: T,
  relationships: R,
) {
  return z.object({ id: z.string(), type: z.literal(type), attributes, relationships });
}

export const Paginate = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});
export type Paginate = z.infer<typeof Paginate>;

export const ListQuery = z.object({
  sort: z.enum(['created_at', 'name', 'filesize', 'updated_at']).default('created_at'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
});
export type ListQuery = z.infer<typeof ListQuery>;
