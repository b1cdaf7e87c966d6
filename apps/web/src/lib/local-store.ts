/**
 * This browser's remembered choices (theme, language, views). Storage can be refused: private modes
 * without it, and a page in another site's frame where the browser keeps third-party storage from it
 * (reading `localStorage` then throws), so a choice is simply not remembered there.
 */
export function readLocal(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remembers a choice where the browser allows it; without storage it lasts for this page only. */
export function writeLocal(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Refused: see readLocal.
  }
}
