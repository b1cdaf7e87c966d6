import {
  SHARE_PASSWORD_LINK_WINDOW_MINUTES,
  SHARE_PASSWORD_MAX_FAILURES_PER_LINK,
  SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE,
} from '@atelier/contracts';
import { AppError } from '../../lib/app-error';
import { clientNetwork } from '../../lib/client-network';
import type { AttemptCounter } from '../auth/login-throttle';

const LINK_WINDOW_MS = SHARE_PASSWORD_LINK_WINDOW_MINUTES * 60_000;

/**
 * Throttles the passwords of protected links: 5 a minute per link and address (an IPv6 client counts
 * by its /64), and 20 checked per link in 15 minutes whatever the addresses, so guesses spread over
 * many addresses stop too. Every attempt is counted before the password is checked, so parallel
 * guesses cannot slip past a count read before it was raised, and a refused attempt costs no
 * password check. A right password gives its counts back.
 */
export class SharePasswordThrottle {
  constructor(private readonly counter: AttemptCounter) {}

  /**
   * Counts the attempt, or throws 429. `linkUnderAttack` runs once per link window, when the link's
   * window fills (whoever fills it), so the owner hears of an attack once, not per guess.
   */
  async begin(token: string, address: string, linkUnderAttack: () => Promise<void>): Promise<void> {
    const own = await this.counter.increment(pairKey(token, address));
    if (own.count > SHARE_PASSWORD_MAX_FAILURES_PER_MINUTE) throw throttled(own.resetInMs);
    const link = await this.counter.increment(linkKey(token), LINK_WINDOW_MS);
    if (link.count > SHARE_PASSWORD_MAX_FAILURES_PER_LINK) {
      if (link.count === SHARE_PASSWORD_MAX_FAILURES_PER_LINK + 1) await linkUnderAttack();
      throw throttled(link.resetInMs);
    }
  }

  async succeeded(token: string, address: string): Promise<void> {
    await Promise.all([this.counter.clear(pairKey(token, address)), this.counter.decrement(linkKey(token))]);
  }
}

function pairKey(token: string, address: string): string {
  return `${token}|${clientNetwork(address)}`;
}

function linkKey(token: string): string {
  return `link|${token}`;
}

function throttled(resetInMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('throttled', 'sharing.throttled', { password: ['sharing.throttled'] }, { seconds });
}
