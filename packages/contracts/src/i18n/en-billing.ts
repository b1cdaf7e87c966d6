/** Billing's plans: the server's messages and the web's strings. */
export const enBilling: Record<string, string> = {
  // Server messages.
  'billing.name_length': 'Keep the name to 120 characters.',
  'billing.description_length': 'Keep the description to 1,000 characters.',
  'billing.currency_unknown': 'Choose a currency by its three-letter ISO code, such as USD or EUR.',
  'billing.money_format': 'Enter an amount like 19.99, with a dot before the decimals.',
  'billing.money_decimals': 'This currency does not have that many decimals.',
  'billing.amount_positive': 'A fixed plan needs a price above zero.',
  'billing.storage_amount': 'Enter whole gigabytes, at least 1.',
  'billing.team_members': 'Enter how many team members, or -1 for no limit.',
  'billing.tiers_required': 'A meter needs at least one tier.',
  'billing.tier_first_unit': 'The first tier starts at unit 1.',
  'billing.tier_contiguous': 'This tier must start right after the previous one ends.',
  'billing.tier_range': 'The last unit cannot come before the first.',
  'billing.tier_open_last': 'Only the last tier may have no end.',
  'billing.tier_open_end': 'Leave the last tier without an end, so every quantity is priced.',
  'billing.meters_required': 'A metered plan needs at least one meter.',
  'billing.meter_duplicate': 'Each meter may appear once.',
  'billing.features_fixed_only': 'Only fixed plans have features.',
};
