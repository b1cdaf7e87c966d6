import { describe, expect, it } from 'vitest';
import { isXsrfTokenFor, mintXsrfToken } from '../src/lib/xsrf-token';

describe('session-bound XSRF tokens', () => {
  it('are valid for the session they were minted for only, however often each is checked', () => {
    const ann = mintXsrfToken('ann-session');
    const visitor = mintXsrfToken(undefined);
    for (let round = 0; round < 2; round++) {
      expect(isXsrfTokenFor(ann, 'ann-session')).toBe(true);
      expect(isXsrfTokenFor(ann, 'bob-session')).toBe(false);
      expect(isXsrfTokenFor(ann, undefined)).toBe(false);
      expect(isXsrfTokenFor(visitor, undefined)).toBe(true);
      expect(isXsrfTokenFor(visitor, 'ann-session')).toBe(false);
    }
  });

  it('refuses a token whose mac was changed or that is not nonce.mac', () => {
    const token = mintXsrfToken('ann-session');
    const [nonce, mac] = token.split('.');
    expect(isXsrfTokenFor(`${nonce}.${mac!.slice(1)}x`, 'ann-session')).toBe(false);
    expect(isXsrfTokenFor(`${token}.more`, 'ann-session')).toBe(false);
    expect(isXsrfTokenFor(nonce!, 'ann-session')).toBe(false);
  });
});
