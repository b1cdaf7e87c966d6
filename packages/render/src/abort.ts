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

/** `work`, or a `timeout` error once `ms` have passed; the timer never outlives the work (a pending one keeps a CLI alive). */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RenderError('timeout', `${what} took longer than ${Math.round(ms / 1000)} s`)),
      ms,
    );
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
