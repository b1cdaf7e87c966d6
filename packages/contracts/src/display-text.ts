import { z } from 'zod';
import { HIDDEN_CONTROL } from './text-controls';

/** A person's name as others see it (sign-up, settings, admin, setup): no hidden controls. */
export const DisplayName = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(120)
  .refine((name) => !HIDDEN_CONTROL.test(name), 'validation.display_name');
