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

const MailLinkPayload = z.object({ request_id: z.uuid() });

/** The link's e-mail to the address a request was made for; retried while the mail server fails. */
export const uploadRequestLinkMailJob = defineJob({
  id: 'upload-requests.mail-link',
  payload: MailLinkPayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof MailLinkPayload>,
      { services }: { services: UploadRequestJobServices },
    ) => {
      await services.uploadRequests.mailLink(payload.request_id);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});
