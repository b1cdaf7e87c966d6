import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { isWebUrl } from '../src/constants';
import { NotificationUrl } from '../src/notifications';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every package a module imports, following its relative imports through the package's files. */
function importedPackages(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
    if (specifier!.startsWith('.')) {
      for (const name of importedPackages(resolve(dirname(file), `${specifier}.ts`), seen))
        packages.add(name);
    } else {
      packages.add(specifier!);
    }
  }
  return packages;
}

describe('the constants entry', () => {
  it('loads no schema library, so the first screens of the web app read it without zod', () => {
    const entry = resolve(packageDir, packageJson.exports['./constants']);
    expect([...importedPackages(entry)]).toEqual([]);
  });

  it('finds the schema library where it is used, so the check above can see an import', () => {
    expect(importedPackages(resolve(packageDir, 'src/notifications.ts'))).toContain('zod');
  });

  it('takes only absolute http and https addresses as links, as the schema of a notification link does', () => {
    const good = ['https://example.com/a?b=1', 'http://example.com'];
    const bad = ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com', '/relative', 'example.com'];
    for (const url of good)
      expect([isWebUrl(url), NotificationUrl.safeParse(url).success]).toEqual([true, true]);
    for (const url of bad)
      expect([isWebUrl(url), NotificationUrl.safeParse(url).success]).toEqual([false, false]);
  });
});
