import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { TeamsService } from './teams.service';

export interface TeamsJobServices {
  teams: TeamsService;
}

const MailInvitationPayload = z.object({ invitation_id: z.uuid() });

/** An invitation's e-mail; retried while the mail server fails, skipped once it was answered. */
export const teamInvitationMailJob = defineJob({
  id: 'teams.mail-invitation',
  payload: MailInvitationPayload,
  handler:
    async () =>
    async (payload: z.infer<typeof MailInvitationPayload>, { services }: { services: TeamsJobServices }) => {
      await services.teams.mailInvitation(payload.invitation_id);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});
