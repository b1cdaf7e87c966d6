import { dateTimeFormat } from './intl-formats';

/** A day as people read it in their language: "Dec 3, 2026". Every date-only text of the app uses it. */
export function formatDate(iso: string, language: string): string {
  return dateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** A moment as people read it in their language: "Dec 3, 2026, 2:00 PM" (the date and the time of day). */
export function formatDateTime(iso: string, language: string): string {
  return dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A recent moment, short, as people read it in their language: "Dec 4, 2:02 PM" (no year). */
export function formatShortDateTime(iso: string, language: string): string {
  return dateTimeFormat(language, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}
