import {
  en,
  PaymentDriver,
  SubscriptionStatus,
  TransactionStatus,
  TransactionType,
} from '@atelier/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The billing screens' own keys, as translations.test.ts checks the shell's. */
const BILLING = join(import.meta.dirname, '../../../src/features/billing');

describe('English strings of the billing screens', () => {
  it('has every key the billing screens name literally', () => {
    const keys = new Set<string>();
    for (const name of readdirSync(BILLING)) {
      const text = readFileSync(join(BILLING, name), 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z_-]+)+)'/g)) keys.add(match[1]!);
      for (const match of text.matchAll(/'(billing_ui\.[a-z_.]+)'/g)) keys.add(match[1]!);
    }
    expect(keys.size).toBeGreaterThan(100);
    // A counted string lives as its plural forms (`_one`, `_other`).
    expect([...keys].filter((key) => !(key in en) && !(`${key}_other` in en))).toEqual([]);
  });

  it('names every status, type and provider the screens build keys for', () => {
    const keys = [
      ...TransactionStatus.options.map((status) => `billing_ui.transaction_status.${status}`),
      ...TransactionType.options.map((type) => `billing_ui.transaction_type.${type}`),
      ...SubscriptionStatus.options.map((status) => `plans.subscription_status.${status}`),
      ...PaymentDriver.options.flatMap((driver) => [
        `billing_ui.driver_hint.${driver}`,
        `billing_ui.provider_lead.${driver}`,
        `billing_ui.webhook_hint.${driver}`,
      ]),
      ...['none', 'fixed', 'metered'].map((type) => `billing_ui.lead_${type}`),
      ...['storage', 'bandwidth', 'members'].map((key) => `billing_ui.quantity.${key}`),
    ];
    expect(keys.filter((key) => !(key in en) && !(`${key}_other` in en))).toEqual([]);
  });
});
