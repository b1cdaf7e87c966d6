import { describe, expect, it } from 'vitest';
import { avatarSizeFor, dateStatusFor, Email, EMAIL_PATTERN, RegisterBody } from '../src';

describe('business constants', () => {
  it('picks the avatar size by the description rule', () => {
    expect(avatarSizeFor(52)).toBe('md');
    expect(avatarSizeFor(51)).toBe('sm');
    expect(avatarSizeFor(33)).toBe('sm');
    expect(avatarSizeFor(32)).toBe('xs');
  });

  it('flags accounts created before 19 March 2024', () => {
    expect(dateStatusFor('2024-03-18T23:59:59Z')).toBe(true);
    expect(dateStatusFor('2024-03-19T00:00:00Z')).toBe(false);
  });

  it("gives the file manager by the instance's cutoff day, or to every account", () => {
    const cutoff = '2025-01-10';
    expect(dateStatusFor('2025-01-09T23:59:59Z', { cutoff, forAll: false })).toBe(true);
    expect(dateStatusFor('2025-01-10T00:00:00Z', { cutoff, forAll: false })).toBe(false);
    expect(dateStatusFor('2026-06-01T00:00:00Z', { cutoff, forAll: true })).toBe(true);
  });

  it('accepts only e-mail addresses with text, @, text, a dot and text, no spaces', () => {
    expect(EMAIL_PATTERN.test('ann@example.com')).toBe(true);
    expect(EMAIL_PATTERN.test('ann.lee+files@mail.example.co.uk')).toBe(true);
    for (const bad of ['ann@example', 'ann example@x.com', '@x.com', 'ann@.com', 'ann@x.', 'ann@x..com']) {
      expect(EMAIL_PATTERN.test(bad)).toBe(false);
    }
  });

  it('refuses an over-long e-mail at the length check, before the pattern runs', () => {
    // The shape that made the old pattern backtrack for minutes: a@ followed by dots and an @.
    const hostile = `a@${'.'.repeat(50_000)}@`;
    const result = Email.safeParse(hostile);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.code)).toEqual(['too_big']);
  });

  it('refuses a registration whose passwords differ', () => {
    const result = RegisterBody.safeParse({
      name: 'Ann',
      email: 'ann@example.com',
      password: 'long-enough-1',
      password_confirmation: 'long-enough-2',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['password_confirmation']);
  });
});
