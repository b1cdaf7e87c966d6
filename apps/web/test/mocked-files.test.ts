import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const testDir = import.meta.dirname;

/**
 * The web tests share a module graph per worker (vitest.config.ts): a vi.mock in a file not named
 * *.mocked.test.* would replace nothing once another file has loaded the module, passing or failing by
 * the order files happen to run in.
 */
it('names every test file that mocks a module *.mocked.test.*', () => {
  const files = readdirSync(testDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.test\.tsx?$/.test(file),
  );
  const mocking = files.filter((file) =>
    /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(testDir, file), 'utf8')),
  );
  expect(mocking.length).toBeGreaterThan(0);
  expect(mocking.filter((file) => !/\.mocked\.test\.tsx?$/.test(file))).toEqual([]);
});
