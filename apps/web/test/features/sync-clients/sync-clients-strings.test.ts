import { en } from '@atelier/contracts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The sync clients' screens' own keys, as translations.test.ts checks the shell's. */
const SYNC_CLIENTS = join(import.meta.dirname, '../../../src/features/sync-clients');

describe('English strings of the sync clients screens', () => {
  it('has every key the login flow and sync clients pages name', () => {
    const keys = new Set<string>();
    for (const name of readdirSync(SYNC_CLIENTS)) {
      const text = readFileSync(join(SYNC_CLIENTS, name), 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z_-]+)+)'/g)) keys.add(match[1]!);
      for (const match of text.matchAll(/'(sync_clients\.[a-z_.]+)'/g)) keys.add(match[1]!);
    }
    expect(keys.size).toBeGreaterThan(40);
    expect([...keys].filter((key) => !(key in en))).toEqual([]);
  });
});
