/** Where the twemoji graphics are served: copied into the build and served by Vite in development. */
export const TWEMOJI_PATH = '/emoji/twemoji/';

const ZERO_WIDTH_JOINER = '\u200d';
const VARIATION_SELECTOR_16 = /\ufe0f/g;

/**
 * The twemoji file of an emoji: its code points in hex joined by dashes. The emoji presentation
 * selector (U+FE0F) is part of the name only inside joined sequences, as twemoji names its files.
 */
export function twemojiUrl(emoji: string): string {
  const sequence = emoji.includes(ZERO_WIDTH_JOINER) ? emoji : emoji.replace(VARIATION_SELECTOR_16, '');
  const codePoints = Array.from(sequence, (character) => character.codePointAt(0)!.toString(16));
  return `${TWEMOJI_PATH}${codePoints.join('-')}.svg`;
}
