/**
 * Intl formatters, made once per language and options. Making one costs far more than using it (a
 * fresh DateTimeFormat reads the locale's patterns), and a listing formats a date and a size on every
 * row: a cold load of a folder made one of each per row before its first paint.
 */
const made = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  key: string,
  make: () => F,
): F {
  let formatter = made.get(key) as F | undefined;
  if (!formatter) {
    formatter = make();
    made.set(key, formatter);
  }
  return formatter;
}

const keyOf = (kind: string, language: string | undefined, options: object) =>
  `${kind} ${language ?? ''} ${JSON.stringify(options)}`;

export const dateTimeFormat = (language: string | undefined, options: Intl.DateTimeFormatOptions) =>
  cached(keyOf('date', language, options), () => new Intl.DateTimeFormat(language, options));

export const numberFormat = (language: string | undefined, options: Intl.NumberFormatOptions) =>
  cached(keyOf('number', language, options), () => new Intl.NumberFormat(language, options));

export const relativeTimeFormat = (language: string, options: Intl.RelativeTimeFormatOptions) =>
  cached(keyOf('relative', language, options), () => new Intl.RelativeTimeFormat(language, options));
