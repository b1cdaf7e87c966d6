import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Alias } from 'vite';
import { describe, expect, it } from 'vitest';
import { productionRouter } from '../../build/production-router';

describe('production router', () => {
  it("resolves react-router, and only it, to the package's build with its warnings off", () => {
    const config = productionRouter().config as () => { resolve: { alias: Alias[] } };
    const [alias] = config().resolve.alias;
    const find = alias!.find as RegExp;
    expect(find.test('react-router')).toBe(true);
    expect(find.test('react-router/dom')).toBe(false);
    expect(find.test('react-router-dom')).toBe(false);
    // The warnings' switch sits in one of the build's chunks.
    const dir = path.dirname(alias!.replacement);
    const sources = readdirSync(dir)
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => readFileSync(path.join(dir, file), 'utf8'));
    expect(sources.some((source) => source.includes('ENABLE_DEV_WARNINGS = false'))).toBe(true);
    expect(sources.some((source) => source.includes('ENABLE_DEV_WARNINGS = true'))).toBe(false);
  });
});
