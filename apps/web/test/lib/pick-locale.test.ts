import { describe, expect, it } from 'vitest';
import { pickLocale } from '../../src/lib/pick-locale';

const available = ['en', 'de', 'pt-BR'];
const pick = (userLocale: string | null, browserLanguages: string[], fallback = 'en') =>
  pickLocale({ userLocale, browserLanguages, available, fallback });

describe('pickLocale', () => {
  it("takes the user's setting first, whatever the browser prefers", () => {
    expect(pick('de', ['pt-BR', 'en'])).toBe('de');
  });

  it('ignores a setting the instance no longer has and falls back to the browser', () => {
    expect(pick('fr', ['de'])).toBe('de');
  });

  it('matches a browser language exactly, whatever its case', () => {
    expect(pick(null, ['pt-br'])).toBe('pt-BR');
  });

  it('matches a regional browser language by its base', () => {
    expect(pick(null, ['de-AT'])).toBe('de');
  });

  it('takes the first browser language the instance has', () => {
    expect(pick(null, ['fr-FR', 'fr', 'de-CH', 'en'])).toBe('de');
  });

  it('falls back to the instance default when nothing matches', () => {
    expect(pick(null, ['fr', 'ja'], 'de')).toBe('de');
    expect(pick(null, [], 'pt-BR')).toBe('pt-BR');
  });
});
