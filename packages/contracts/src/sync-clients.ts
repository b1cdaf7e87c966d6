import { z } from 'zod';

/** A login flow's page token, as it appears in the address the client opened (`/login/v2/flow/{token}`). */
export const LoginFlowParams = z.object({ token: z.string().min(1).max(128) });
export type LoginFlowParams = z.infer<typeof LoginFlowParams>;

/** GET /api/login-flows/{token}: the client asking to connect, for the person to grant or refuse. */
export const LoginFlowDocument = z.object({
  data: z.object({
    /** The client in words, e.g. "Nextcloud desktop 3.7.3 on Linux". */
    client: z.string(),
    /** Exactly what the client sent as its User-Agent. */
    user_agent: z.string(),
    expires_at: z.string(),
  }),
});
export type LoginFlowDocument = z.infer<typeof LoginFlowDocument>;
