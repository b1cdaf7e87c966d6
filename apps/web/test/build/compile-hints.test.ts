import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints } from '../../build/compile-hints';

type Handler = (this: unknown, options: unknown, bundle: Rollup.OutputBundle) => void;

const chunk = (fileName: string, isEntry: boolean) =>
  ({ type: 'chunk', fileName, isEntry, code: 'const a=1;\nexport{a};' }) as Rollup.OutputChunk;
const map = (fileName: string) =>
  ({
    type: 'asset',
    fileName,
    source: JSON.stringify({ version: 3, mappings: 'AAAA;AACA' }),
  }) as Rollup.OutputAsset;

describe('compile hints', () => {
  it("opens each entry's chunk with the hint and moves its source map a line down", () => {
    const bundle: Rollup.OutputBundle = {
      'index.js': chunk('index.js', true),
      'index.js.map': map('index.js.map'),
      'page.js': chunk('page.js', false),
      'page.js.map': map('page.js.map'),
    };
    (compileHints().generateBundle as { handler: Handler }).handler.call(null, {}, bundle);
    const entry = bundle['index.js'] as Rollup.OutputChunk;
    expect(entry.code.split('\n')).toEqual([COMPILE_HINT, 'const a=1;', 'export{a};']);
    const entryMap = JSON.parse(String((bundle['index.js.map'] as Rollup.OutputAsset).source));
    expect(entryMap).toEqual({ version: 3, mappings: ';AAAA;AACA' });
    // A chunk loaded by import() may be compiled for nothing: it stays lazily compiled.
    expect((bundle['page.js'] as Rollup.OutputChunk).code).toBe('const a=1;\nexport{a};');
    expect(JSON.parse(String((bundle['page.js.map'] as Rollup.OutputAsset).source)).mappings).toBe(
      'AAAA;AACA',
    );
  });
});
