import { accentPalette } from '@atelier/contracts/constants';
import { useLayoutEffect } from 'react';
import { accentVariables } from '../lib/accent-variables';

const STYLE_ID = 'instance-accent';

const declarations = (variables: Record<string, string>) =>
  Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');

/**
 * The admin's accent colour (appearance settings) becomes the app's primary colour for everyone, in
 * both themes, as accentPalette() keeps it readable; without one index.css's clay stays.
 */
export function useAccentColor(accent: string | null): void {
  // Before the first paint, so a visitor never sees the built-in colour flash first.
  useLayoutEffect(() => {
    document.getElementById(STYLE_ID)?.remove();
    if (!accent) return;
    const palette = accentPalette(accent);
    const style = document.createElement('style');
    style.id = STYLE_ID;
    // Doubled selectors outrank index.css's :root and .dark wherever the stylesheets load.
    style.textContent = `:root:root{${declarations(accentVariables(palette.light))}}:root.dark{${declarations(accentVariables(palette.dark))}}`;
    document.head.append(style);
  }, [accent]);
}
