import { randomBytes } from 'node:crypto';

// 32 characters without the look-alikes 0/o and 1/l: each is 5 random bits, and 256 is a multiple
// of 32, so a byte masked to 5 bits picks every character equally often.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP_LENGTH = 6;
const LENGTH = GROUPS * GROUP_LENGTH;
const NORMALIZED = new RegExp(`^[${ALPHABET}]{${LENGTH}}$`);

/**
 * A new app password in its normalized form: 24 characters, 120 random bits. The first group is its
 * lookup (30 bits, stored plainly to find the row); the 90 bits after it alone already outlast any
 * guessing, and argon2id of the whole keeps a leaked table from replaying it.
 */
export function newAppPassword(): string {
  return Array.from(randomBytes(LENGTH), (byte) => ALPHABET[byte & 31]).join('');
}

/** How the password is shown once: four groups, e.g. `k7mq2x-9hdt4r-wz3bne-p8cuya`. */
export function displayedAppPassword(normalized: string): string {
  return normalized.match(new RegExp(`.{${GROUP_LENGTH}}`, 'g'))!.join('-');
}

/** A supplied password as it is stored, whatever dashes, spaces or capitals it was typed with; null when it cannot be one. */
export function normalizedAppPassword(supplied: string): string | null {
  if (supplied.length > 4 * LENGTH) return null;
  const normalized = supplied.replace(/[\s-]/g, '').toLowerCase();
  return NORMALIZED.test(normalized) ? normalized : null;
}

/** The part of a normalized password its row is found by. */
export function lookupOf(normalized: string): string {
  return normalized.slice(0, GROUP_LENGTH);
}
