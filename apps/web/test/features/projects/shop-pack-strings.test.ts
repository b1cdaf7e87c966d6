import { en, RenderPolicy } from '@atelier/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SECTION = join(import.meta.dirname, '../../../src/features/projects/shop-pack-section.tsx');

describe('English strings of the shop pack section', () => {
  it('has every key the section names, and a line for every marketplace rule about renders', () => {
    const text = readFileSync(SECTION, 'utf8');
    const keys = new Set<string>();
    for (const match of text.matchAll(/'(shop_pack\.[a-z_.]+)'/g)) keys.add(match[1]!);
    for (const policy of RenderPolicy.options) keys.add(`shop_pack.renders.${policy}`);
    expect(keys.size).toBeGreaterThan(20);
    expect([...keys].filter((key) => !(key in en))).toEqual([]);
  });
});
