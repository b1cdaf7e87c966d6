/**
 * An instant as a language writes it, in UTC (mails and PDFs have no reader's time zone to go by);
 * English when the locale is not one Intl knows.
 */
export function formatUtc(iso: string, locale: string, withTime = false): string {
  const options: Intl.DateTimeFormatOptions = withTime
    ? {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      }
    : { dateStyle: 'long', timeZone: 'UTC' };
  const date = new Date(iso);
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return new Intl.DateTimeFormat('en', options).format(date);
  }
}
