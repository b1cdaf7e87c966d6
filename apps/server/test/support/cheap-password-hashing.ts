import type * as Argon2 from '@node-rs/argon2';
import { vi } from 'vitest';

/**
 * Every test file's passwords are hashed with argon2id at a test-only cost: production's (19 MiB,
 * 2 passes, the library's default) spends over ten milliseconds of a shared CPU on each user, app
 * password and link password the tests make, and milliseconds on each check of one. Hashes still
 * verify as in production (the cost travels in the hash); test/passwords.test.ts holds the real
 * parameters.
 */
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof Argon2>();
  const hash: typeof argon2.hash = (password, options) =>
    argon2.hash(password, { memoryCost: 1024, timeCost: 1, ...options });
  return { ...argon2, hash };
});
