import { describe, expect, it } from 'vitest';
import { accentPalette, contrastRatio, MIN_TEXT_CONTRAST } from '../src';

describe('accentPalette', () => {
  it('keeps a colour that already reads, and moves one that does not until text on it and in it reads', () => {
    const blue = accentPalette('#2563eb');
    expect(blue.light).toMatchObject({ accent: '#2563eb', onAccent: '#ffffff', adjusted: false });
    const yellow = accentPalette('#ffd400');
    // Yellow on paper is unreadable: the light theme darkens it; the dark theme keeps it with dark labels.
    expect(yellow.light.adjusted).toBe(true);
    expect(yellow.dark).toMatchObject({ accent: '#ffd400', adjusted: false });
    expect(contrastRatio(yellow.dark.onAccent, '#ffd400')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    for (const color of ['#ffffff', '#000000', '#777777', '#ffd400', '#0f172a', '#e11d48']) {
      for (const tones of Object.values(accentPalette(color))) {
        expect(tones.contrast).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        expect(tones.labelContrast).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        expect(contrastRatio(tones.onAccent, tones.accent)).toBeCloseTo(tones.labelContrast);
      }
    }
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
  });
});
