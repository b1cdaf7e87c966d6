/**
 * `text` without any of `characters` at its end, or at both ends. A loop rather than a pattern such
 * as `/x+$/`, which rescans every run of x from each of its positions: quadratic on hostile input.
 */
export function trimCharacters(text: string, characters: string, ends: 'end' | 'both' = 'end'): string {
  let start = 0;
  let end = text.length;
  while (end > start && characters.includes(text[end - 1]!)) end--;
  if (ends === 'both') while (start < end && characters.includes(text[start]!)) start++;
  return text.slice(start, end);
}
