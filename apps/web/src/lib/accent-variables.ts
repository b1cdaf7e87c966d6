import type { AccentTones } from '@atelier/contracts/constants';

/** The CSS variables of index.css that one theme's accent tones replace. */
export function accentVariables(tones: AccentTones): Record<string, string> {
  return {
    '--accent': tones.accent,
    '--accent-strong': tones.strong,
    '--accent-soft': tones.soft,
    '--on-accent': tones.onAccent,
  };
}
