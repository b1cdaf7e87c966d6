/** A moment as people read it in their language: "3 Dec 2026, 14:00" (the date and the time of day). */
export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
