/**
 * A plan's decimal string in the reader's locale and the plan's currency. The string goes to Intl
 * as it is, so "0.10" or a large amount is never rounded through a float.
 */
export function formatMoney(amount: string, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount as `${number}`);
}
