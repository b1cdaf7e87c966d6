import type { MeterKey } from '@atelier/contracts';
import { addMonths } from './billing-periods';
import type { StoredMeter } from './billing.tables';

/**
 * What `quantity` units of a meter cost, in minor units, graduated through every tier: the units
 * falling in each tier at that tier's `per_unit`, plus the tier's `flat_fee` when any unit falls in
 * it. Units are counted from 1; a tier without `last_unit` has no end.
 */
export function priceMeter(meter: Pick<StoredMeter, 'tiers'>, quantity: number): number {
  const units = Math.max(0, Math.floor(quantity));
  let total = 0;
  for (const tier of meter.tiers) {
    const last = tier.last_unit === null ? units : Math.min(units, tier.last_unit);
    const inTier = last - tier.first_unit + 1;
    if (inTier <= 0) continue;
    total += inTier * tier.per_unit + tier.flat_fee;
  }
  return total;
}

/** A period's quantity of one meter from its daily records: the maximum or the sum; a flat fee is 1. */
export function periodQuantity(meter: Pick<StoredMeter, 'key' | 'aggregate'>, daily: number[]): number {
  if (meter.key === 'flat_fee') return 1;
  if (daily.length === 0) return 0;
  return meter.aggregate === 'maximum' ? Math.max(...daily) : daily.reduce((sum, value) => sum + value, 0);
}

/** Each meter's quantity and price for a period, and the total, all in minor units. */
export function pricePeriod(
  meters: StoredMeter[],
  records: { key: MeterKey; quantity: number }[],
): { items: { key: MeterKey; quantity: number; amountMinor: number }[]; totalMinor: number } {
  const items = meters.map((meter) => {
    const quantity = periodQuantity(
      meter,
      records.filter((record) => record.key === meter.key).map((record) => Number(record.quantity)),
    );
    return { key: meter.key, quantity, amountMinor: priceMeter(meter, quantity) };
  });
  return { items, totalMinor: items.reduce((sum, item) => sum + item.amountMinor, 0) };
}

/** GB as billed: a started GB counts as a unit. */
export function gigabytesStarted(bytes: number): number {
  return bytes <= 0 ? 0 : Math.ceil(bytes / 1e9);
}

/** The monthly period of a subscription started at `anchor` that ends at `end` (or contains `at`). */
export function periodEndingAt(anchor: string, end: string): { start: string; end: string } {
  const from = new Date(anchor);
  const until = new Date(end).getTime();
  let n = 0;
  while (addMonths(from, n + 1).getTime() < until && n < 12_000) n += 1;
  return { start: addMonths(from, n).toISOString(), end: addMonths(from, n + 1).toISOString() };
}

/** `YYYY-MM-DD` of a moment, UTC. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}
