import type { MeterKey, PlanMeter } from '@atelier/contracts';

/** A tier as typed: every number stays text until the server has read it. */
export interface TierDraft {
  first_unit: string;
  last_unit: string;
  per_unit: string;
  flat_fee: string;
}

export interface MeterDraft {
  key: MeterKey;
  aggregate: PlanMeter['aggregate'];
  tiers: TierDraft[];
}

/** How each meter is usually counted: storage and members at their peak, the rest added up. */
export const DEFAULT_AGGREGATE: Record<MeterKey, PlanMeter['aggregate']> = {
  storage: 'maximum',
  bandwidth: 'sum',
  members: 'maximum',
  flat_fee: 'sum',
};

export const openTier = (firstUnit: string): TierDraft => ({
  first_unit: firstUnit,
  last_unit: '',
  per_unit: '0.00',
  flat_fee: '0.00',
});

export const newMeter = (key: MeterKey): MeterDraft => ({
  key,
  aggregate: DEFAULT_AGGREGATE[key],
  tiers: [openTier('1')],
});

/** A whole number as a number; anything else as typed, for the server to name the field. */
export function unitsOf(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

/** The tier after the last one: the last gets an end (if it had none) and the new one follows it. */
export function withTierAdded(tiers: TierDraft[]): TierDraft[] {
  const last = tiers.at(-1);
  if (!last) return [openTier('1')];
  const first = Number(last.first_unit);
  const end =
    last.last_unit.trim() !== '' ? last.last_unit : Number.isInteger(first) ? String(first * 10) : '';
  const next = Number(end);
  return [
    ...tiers.slice(0, -1),
    { ...last, last_unit: end },
    openTier(Number.isInteger(next) ? String(next + 1) : ''),
  ];
}

export function meterBody(meter: MeterDraft) {
  return {
    key: meter.key,
    aggregate: meter.aggregate,
    tiers: meter.tiers.map((tier) => ({
      first_unit: unitsOf(tier.first_unit),
      last_unit: tier.last_unit.trim() === '' ? null : unitsOf(tier.last_unit),
      per_unit: tier.per_unit.trim(),
      flat_fee: tier.flat_fee.trim(),
    })),
  };
}
