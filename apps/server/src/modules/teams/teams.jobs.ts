import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { TeamsService } from './teams.service';

export interface TeamsJobServices {
  teams: TeamsService;
}

const MailInvitationPayload = z.object({ invitation_id: z.uuid() });

/** An invitation's e-mail; retried while the mail server fails, skipped once it was answered or another job sent it. */
export const teamInvitationMailJob = defineJob({
  id: 'teams.mail-invitation',
  payload: MailInvitationPayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof MailInvitationPayload>,
      { jobId, services }: { jobId: string; services: TeamsJobServices },
    ) => {
      await services.teams.mailInvitation(payload.invitation_id, jobId);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});
