import { describe, expect, it } from 'vitest';
import { UniqueNames } from '../../src/modules/files/download.service';

describe("a zip's names", () => {
  it('makes names unique in a folder, whatever their case, numbering each name on', () => {
    const names = new UniqueNames();
    const given = [
      'plan.pdf',
      'Plan.pdf',
      'plan.pdf',
      'plan (1).pdf',
      'a:b.txt',
      'a?b.txt',
      'Drawings',
      'drawings',
    ];
    const types = ['file', 'file', 'file', 'file', 'file', 'file', 'folder', 'folder'] as const;
    expect(given.map((name, i) => names.take(name, types[i]!))).toEqual([
      'plan.pdf',
      'Plan (1).pdf',
      'plan (2).pdf',
      // A name of its own that a number gave another already: numbered on in turn.
      'plan (1) (1).pdf',
      'a_b.txt',
      'a_b (1).txt',
      'Drawings',
      'drawings (1)',
    ]);
  });

  it('names a folder of many names that clean to one without trying every number again (no stalled server)', () => {
    // `x` and six of `: * ? " < > |` each: 100,000 names the rules allow, all `x______` once cleaned.
    // Trying from (1) each time cost 5 billion look-ups here: minutes of a blocked event loop.
    const marks = ':*?"<>|';
    const names = new UniqueNames();
    const taken = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      let name = 'x';
      for (let rest = i, k = 0; k < 6; k++, rest = Math.floor(rest / marks.length))
        name += marks[rest % marks.length];
      taken.add(names.take(`${name}${i}.step`, 'file').toLowerCase());
      taken.add(names.take(name, 'file').toLowerCase());
    }
    expect(taken.size).toBe(200_000);
    expect(names.take('x______', 'file')).toBe('x______ (100000)');
  });
});
