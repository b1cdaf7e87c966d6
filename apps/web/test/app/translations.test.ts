import { en } from '@atelier/contracts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/app/routes';
import { sidebarEntriesFor, type RouteHandle } from '../../src/components/sidebar/sidebar-entries';
import { WIZARD_STEPS } from '../../src/features/setup/wizard-steps';

// The shell's own folders; feature areas of later issues keep their own checks.
const SHELL_PATHS = [
  'app',
  'components',
  'lib',
  'features/auth',
  'features/public',
  'features/session',
  'features/setup',
  'features/theme',
];
const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(path: string): string[] {
  const full = join(SRC, path);
  if (statSync(full).isFile()) return [full];
  return readdirSync(full).flatMap((name) => sourceFiles(join(path, name)));
}

function routeHandles(list: RouteObject[]): RouteHandle[] {
  return list.flatMap((route) => [
    ...(route.handle ? [route.handle as RouteHandle] : []),
    ...routeHandles(route.children ?? []),
  ]);
}

describe('English strings of the shell', () => {
  it('has every key the shell names literally', () => {
    const keys = new Set<string>();
    for (const file of SHELL_PATHS.flatMap(sourceFiles)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-z_]+(?:\.[a-z_-]+)+)'/g)) keys.add(match[1]!);
      for (const match of text.matchAll(/i18nKey="([^"]+)"/g)) keys.add(match[1]!);
    }
    expect(keys.size).toBeGreaterThan(100);
    expect([...keys].filter((key) => !(key in en))).toEqual([]);
  });

  it('has a title for every route that names one', () => {
    const handles = routeHandles(routes);
    expect(handles.length).toBeGreaterThan(50);
    const missing = handles
      .map((handle) => handle.titleKey)
      .filter((key): key is string => !!key && !(key in en));
    expect(missing).toEqual([]);
  });

  it('names every sidebar entry and wizard step', () => {
    const entries = [
      ...sidebarEntriesFor({ role: 'admin', dateStatus: true }),
      ...sidebarEntriesFor({ role: 'user', dateStatus: true }),
    ];
    const keys = [
      ...entries.map((entry) => entry.labelKey),
      ...WIZARD_STEPS.map((step) => `setup.step.${step}`),
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });
});
