import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputsHash, isBuiltFrom, markBuiltFrom } from '../../../scripts/build-stamp.mjs';

// `npm start` builds a workspace only when a file it is built from changed since its last build.
describe('npm start: what needs building', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const manifest = (name: string, dependencies: Record<string, string> = {}) =>
    JSON.stringify({ name, dependencies });

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'atelier-start-'));
    write('package.json', JSON.stringify({ workspaces: ['apps/web', 'packages/shared', 'packages/other'] }));
    write('package-lock.json', '{}');
    write('apps/web/package.json', manifest('web', { shared: '*', react: '^19' }));
    write('apps/web/src/main.ts', 'main');
    write('packages/shared/package.json', manifest('shared'));
    write('packages/shared/src/index.ts', 'shared');
    write('packages/other/package.json', manifest('other'));
    write('packages/other/src/index.ts', 'other');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const built = () => {
    const output = path.join(root, 'apps/web/dist');
    mkdirSync(output, { recursive: true });
    markBuiltFrom(output, inputsHash(root, 'apps/web'));
  };
  const current = () => isBuiltFrom(path.join(root, 'apps/web/dist'), inputsHash(root, 'apps/web'));

  it('builds what was never built, or whose output is gone', () => {
    expect(current()).toBe(false);
    built();
    expect(current()).toBe(true);
    rmSync(path.join(root, 'apps/web/dist'), { recursive: true });
    expect(current()).toBe(false);
  });

  it('builds again when a source, a workspace package it uses or the lockfile changes', () => {
    for (const [file, text] of [
      ['apps/web/src/main.ts', 'main, edited'],
      ['apps/web/src/new-page.ts', 'a new file'],
      ['packages/shared/src/index.ts', 'shared, edited'],
      ['package-lock.json', '{"edited":true}'],
    ]) {
      built();
      write(file!, text!);
      expect(current(), file).toBe(false);
    }
    built();
    rmSync(path.join(root, 'apps/web/src/new-page.ts'));
    expect(current(), 'a removed file').toBe(false);
  });

  it('keeps the build when only other workspaces, tests, outputs or file times change', () => {
    built();
    write('packages/other/src/index.ts', 'other, edited');
    write('apps/web/test/main.test.ts', 'a test');
    write('apps/web/dist/index.html', 'built');
    write('apps/web/node_modules/some-package/index.js', 'installed');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'apps/web/src/main.ts'), later, later);
    expect(current()).toBe(true);
  });
});
