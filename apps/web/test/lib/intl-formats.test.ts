import { describe, expect, it } from 'vitest';
import { formatDate } from '../../src/lib/format-date';
import { dateTimeFormat, numberFormat } from '../../src/lib/intl-formats';
import { formatBytes } from '../../src/features/files/item-kind';

describe('Intl formatters made once', () => {
  it('are the same formatter for the same language and options, another for others', () => {
    const medium = dateTimeFormat('en', { dateStyle: 'medium' });
    expect(dateTimeFormat('en', { dateStyle: 'medium' })).toBe(medium);
    expect(dateTimeFormat('fr', { dateStyle: 'medium' })).not.toBe(medium);
    expect(dateTimeFormat('en', { dateStyle: 'long' })).not.toBe(medium);
    expect(numberFormat(undefined, { maximumFractionDigits: 1 })).toBe(
      numberFormat(undefined, { maximumFractionDigits: 1 }),
    );
  });

  it('format as a new one would, in each language asked for', () => {
    const day = '2026-12-03T14:00:00Z';
    expect(formatDate(day, 'en')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(day)),
    );
    expect(formatDate(day, 'de')).toBe(
      new Intl.DateTimeFormat('de', { dateStyle: 'medium' }).format(new Date(day)),
    );
    expect(formatBytes(1_234_567, 'en')).toBe('1.2 MB');
    expect(formatBytes(1_234_567, 'de')).toBe('1,2 MB');
    expect(formatBytes(123_456_789, 'en')).toBe('123 MB');
  });
});
