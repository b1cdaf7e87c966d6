import { z } from 'zod';

/** Where a background job stands, on either queue driver. */
export const JobStatus = z.enum(['queued', 'running', 'completed', 'failed']);
export type JobStatus = z.infer<typeof JobStatus>;

/** What the API tells a client about one job it started (a render run answers with a list of these). */
export const JobSummary = z.object({
  id: z.string(),
  type: z.literal('job'),
  attributes: z.object({
    name: z.string(),
    status: JobStatus,
    attempts: z.number().int(),
    error: z.string().nullable(),
  }),
});
export type JobSummary = z.infer<typeof JobSummary>;
