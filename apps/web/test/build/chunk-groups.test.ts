import { describe, expect, it } from 'vitest';
import { importsBack, planGroups, type ChunkNode } from '../../build/chunk-groups';

/** A chunk named `name`, holding `src/{name}.tsx`, importing the named chunks. */
function chunk(name: string, size: number, imports: string[] = [], kind?: 'entry' | 'lazy'): ChunkNode {
  return {
    fileName: `${name}.js`,
    name,
    moduleIds: [`src/${name}.tsx`],
    imports: imports.map((imported) => `${imported}.js`),
    isEntry: kind === 'entry',
    isDynamicEntry: kind === 'lazy',
    facadeModuleId: kind ? `src/${name}.tsx` : null,
    size,
  };
}

// The entry; a screen (files) using a list, icons and a dialog part; a page outside the frame (share)
// using the list and the icons, and one (sign-in) using the icons only.
const chunks = [
  chunk('main', 100_000, [], 'entry'),
  chunk('files', 5_000, ['main', 'list', 'icons', 'dialog', 'menu'], 'lazy'),
  chunk('list', 20_000, ['main', 'icons']),
  chunk('icons', 1_000, ['main']),
  chunk('dialog', 3_000, ['main']),
  chunk('menu', 2_000, ['main']),
  chunk('share', 4_000, ['main', 'list'], 'lazy'),
  chunk('sign-in', 4_000, ['main', 'icons'], 'lazy'),
];
const plan = { screens: ['src/files.tsx'], apart: (id: string) => /share|sign-in/.test(id) };

/** The groups of a plan, each as its chunks' names, sorted. */
function groups(keys: Map<string, string>): string[][] {
  const byKey = new Map<string, string[]>();
  for (const [file, key] of keys) byKey.set(key, [...(byKey.get(key) ?? []), file.replace('.js', '')]);
  return [...byKey.values()].map((names) => names.sort()).sort();
}

describe('planGroups', () => {
  it('groups the chunks of a screen that the same other screens load, so none of those loads more', () => {
    // files, dialog and menu are loaded by neither share nor sign-in; list by share; icons by both.
    expect(groups(planGroups(chunks, { ...plan, budget: 0 }))).toEqual([['dialog', 'files', 'menu']]);
  });

  it('merges further while no page outside the frame loads more than the budget', () => {
    // The list with the screen's group costs share 10,000 bytes; the icons with anything cost sign-in more.
    expect(groups(planGroups(chunks, { ...plan, budget: 10_000 }))).toEqual([
      ['dialog', 'files', 'list', 'menu'],
    ]);
    expect(groups(planGroups(chunks, { ...plan, budget: 40_000 }))).toEqual([
      ['dialog', 'files', 'icons', 'list', 'menu'],
    ]);
  });

  it('tells a group that imports, through a chunk outside it, one of its own', () => {
    // files -> rows -> cells: files and cells in one chunk would import rows, which imports them back.
    const byFile = new Map(
      [chunk('files', 1, ['rows', 'main']), chunk('rows', 1, ['cells']), chunk('cells', 1, ['main'])].map(
        (node) => [node.fileName, node] as const,
      ),
    );
    expect(importsBack(['files.js', 'cells.js'], byFile)).toBe(true);
    expect(importsBack(['files.js', 'rows.js'], byFile)).toBe(false);
  });
});
