import type { PlanRow } from './billing.tables';

/**
 * `months` calendar months after `anchor` (UTC), the day kept or clamped to the month's last day
 * (31 January + 1 month = 28 or 29 February), always counted from the anchor so periods never drift.
 */
export function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The end of one interval after `from` (month or year), in UTC, clamped as `addMonths` clamps. */
export function addInterval(from: Date, interval: PlanRow['interval']): string {
  return addMonths(from, interval === 'year' ? 12 : 1).toISOString();
}
