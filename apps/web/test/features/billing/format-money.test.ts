import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/features/billing/format-money';

describe('formatMoney', () => {
  it('writes the amount in the locale’s way with the currency’s decimals', () => {
    expect(formatMoney('19.99', 'USD', 'en')).toBe('$19.99');
    expect(formatMoney('0.10', 'USD', 'en')).toBe('$0.10');
    expect(formatMoney('1234.50', 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
    expect(formatMoney('500', 'JPY', 'en')).toBe('¥500');
    expect(formatMoney('1.250', 'KWD', 'en')).toBe('KWD\u00a01.250');
  });

  it('keeps every digit of a large amount, which a float would round', () => {
    expect(formatMoney('9999999999.99', 'USD', 'en')).toBe('$9,999,999,999.99');
    expect(formatMoney('90071992547409.93', 'USD', 'en')).toBe('$90,071,992,547,409.93');
  });
});
