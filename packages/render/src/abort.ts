import { RenderError } from './types';

/**
 * The error for a stopped stage: `timeout` when the signal came from AbortSignal.timeout() (a
 * job's time limit), `cancelled` for anything else (a user pressing stop).
 */
export function abortError(signal: AbortSignal | undefined, stage: string): RenderError {
  const timedOut = (signal?.reason as { name?: string } | undefined)?.name === 'TimeoutError';
  return timedOut
    ? new RenderError('timeout', `${stage} ran out of time`)
    : new RenderError('cancelled', `${stage} was cancelled`);
}
