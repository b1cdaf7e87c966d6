import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

/** Test files that replace modules with vi.mock: they run in a module graph of their own (vitest.mocked.config.ts). */
export const MOCKED_FILES = 'test/**/*.mocked.test.{ts,tsx}';

/** The web tests' project, for the files `include` names. */
export function webProject(name: string, include: string[], exclude: string[], isolate: boolean) {
  return defineProject({
    plugins: [react()],
    test: {
      name,
      environment: 'jsdom',
      setupFiles: ['./test/setup.ts'],
      include,
      exclude,
      isolate,
      // Lazy page modules are transformed on first use; a busy CI box needs room for that.
      testTimeout: 30_000,
    },
  });
}

// A worker runs its files one after another in one module graph and one jsdom instead of loading
// React, the app's modules and a fresh jsdom for each file: about two thirds of the layer's time (76
// files on this machine: 219 -> 53 s). The app's module-level stores are reset before each test
// (test/setup.ts); a file that mocks a module would find it already loaded, so those files are named
// *.mocked.test.* and keep a graph of their own (test/mocked-files.test.ts holds it).
export default webProject('web', ['test/**/*.test.{ts,tsx}'], [MOCKED_FILES], false);
