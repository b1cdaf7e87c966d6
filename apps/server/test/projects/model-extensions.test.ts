import { isModelFileName, MODEL_EXTENSIONS } from '@atelier/contracts';
import { SUPPORTED_EXTENSIONS } from '@atelier/render';
import { expect, it } from 'vitest';

it('accepts in the project upload exactly the formats the render engine imports', () => {
  expect([...MODEL_EXTENSIONS].sort()).toEqual(
    SUPPORTED_EXTENSIONS.map((ext) => ext.replace(/^\./, '')).sort(),
  );
  expect(isModelFileName('Bracket.STEP')).toBe(true);
  expect(isModelFileName('ring.3mf')).toBe(true);
  expect(isModelFileName('notes.txt')).toBe(false);
  expect(isModelFileName('stl')).toBe(false);
});
