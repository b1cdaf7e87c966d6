import { BIDI_CONTROL } from '@atelier/contracts/constants';

/**
 * A file or folder name as the screen shows it. The name is kept as its owner gave it, but a
 * direction control inside it (U+202E turns `invoice‮gpj.exe` into what reads as a picture) is
 * shown as its code point, `<U+202E>`, the way careful clients show such names.
 */
export function displayFileName(name: string): string {
  return name.replace(
    BIDI_CONTROL,
    (control) => `<U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}
