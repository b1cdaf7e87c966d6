/** A LIKE pattern matching `text` anywhere, its wildcards escaped (use with `escape '\'`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
