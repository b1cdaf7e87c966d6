import { AppError } from '../../lib/app-error';
import type { AttemptCounter } from '../auth/login-throttle';

/** Wrong passwords one address may try on one link in a minute; the next answer is 429. */
export const SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE = 5;

/**
 * Throttles the passwords of protected links, per link and address. Every attempt is counted
 * before the password is checked, so parallel guesses cannot slip past a count read before it was
 * raised, and a refused attempt costs no password check. A right password gives the count back.
 */
export class SharePasswordThrottle {
  constructor(private readonly counter: AttemptCounter) {}

  async begin(token: string, address: string): Promise<void> {
    const window = await this.counter.increment(keyOf(token, address));
    if (window.count > SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil(window.resetInMs / 1000));
      throw new AppError('throttled', 'sharing.throttled', { password: ['sharing.throttled'] }, { seconds });
    }
  }

  async succeeded(token: string, address: string): Promise<void> {
    await this.counter.clear(keyOf(token, address));
  }
}

function keyOf(token: string, address: string): string {
  return `${token}|${address}`;
}
