import { z } from 'zod';
import { ACCENT_COLOR_PATTERN } from './accent';

/** An accent colour as the admin picks it: `#rrggbb`. */
export const AccentColor = z
  .string()
  .trim()
  .toLowerCase()
  .regex(ACCENT_COLOR_PATTERN, 'validation.accent_color');
