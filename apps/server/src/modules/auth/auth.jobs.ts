import { z } from 'zod';
import { defineJob } from '../../jobs/job-definition';
import type { AuthService } from './auth.service';

export interface AuthJobServices {
  auth: AuthService;
}

const PasswordResetMailPayload = z.object({ email: z.string() });

/**
 * A password-reset request's lookup and e-mail, off the response path: the answer to the request
 * costs the same whether the address has an account or not, so its timing tells nothing.
 */
export const passwordResetMailJob = defineJob({
  id: 'auth.password-reset-mail',
  payload: PasswordResetMailPayload,
  handler:
    async () =>
    async (
      payload: z.infer<typeof PasswordResetMailPayload>,
      { services }: { services: AuthJobServices },
    ) => {
      await services.auth.mailPasswordReset(payload.email);
    },
  retries: 5,
  backoff: { type: 'exponential', delayMs: 30_000 },
  concurrency: 2,
});

/** The background jobs of the auth module, for the worker's list. */
export const authJobDefinitions = [passwordResetMailJob];
