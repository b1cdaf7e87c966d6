import { afterAll, describe, expect, it, vi } from 'vitest';

// The other test files hash at a cheaper cost (support/cheap-password-hashing.ts); this one hashes as production does.
vi.unmock('@node-rs/argon2');
// A worker's test files share its modules (vitest.config.ts), so the hashing module may already be
// loaded with the cheap cost: this file loads its own, and leaves the next file none of it.
vi.resetModules();
const { hashPassword, verifyPassword } = await import('../src/lib/passwords');
afterAll(() => vi.resetModules());

describe('password hashing', () => {
  it('uses argon2id at OWASP’s minimum cost (19 MiB, 2 passes), and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery!')).toBe(false);
  });
});
