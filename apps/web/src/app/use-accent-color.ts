import { ACCENT_STYLE_ID, accentPalette, accentStyleSheet } from '@atelier/contracts/constants';
import { useLayoutEffect } from 'react';

/**
 * The admin's accent colour (appearance settings) becomes the app's primary colour for everyone, in
 * both themes, as accentPalette() keeps it readable; without one index.css's clay stays. The server
 * writes the same style into the page it serves, so the first paint has it before this runs.
 */
export function useAccentColor(accent: string | null): void {
  useLayoutEffect(() => {
    document.getElementById(ACCENT_STYLE_ID)?.remove();
    if (!accent) return;
    const style = document.createElement('style');
    style.id = ACCENT_STYLE_ID;
    style.textContent = accentStyleSheet(accentPalette(accent));
    document.head.append(style);
  }, [accent]);
}
