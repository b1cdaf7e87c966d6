import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { UploadRequestsService } from './upload-requests.service';

export interface UploadRequestJobServices {
  uploadRequests: UploadRequestsService;
}

const MailOwnerPayload = z.object({ request_id: z.uuid(), event: z.enum(['arriving', 'filled']) });

/** The owner's e-mail about a request's first file or its close; retried while the mail server fails. */
export const uploadRequestMailJob = defineJob({
  id: 'upload-requests.mail-owner',
  payload: MailOwnerPayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof MailOwnerPayload>,
      { services }: { services: UploadRequestJobServices },
    ) => {
      await services.uploadRequests.mailOwner(payload.request_id, payload.event);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});
