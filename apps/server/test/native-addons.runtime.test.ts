import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash, verify } from '@node-rs/argon2';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadSqliteDriver } from '../src/db/sqlite-driver';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Whether a package ships a compiled addon (a `.node` file outside its own node_modules). */
function holdsAddon(dir: string): boolean {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some(
    (entry) => entry.endsWith('.node') && !entry.split(path.sep).includes('node_modules'),
  );
}

/**
 * Every package with a compiled addon that the server loads at run time, by the name it is installed
 * under: the production dependencies of the server (the render package's included), followed from
 * package to package the way Node resolves them. Optional ones that are not installed (other
 * platforms' binaries) are skipped.
 */
function runtimeAddons(): string[] {
  const seen = new Set<string>();
  const addons = new Set<string>();
  const visit = (name: string, manifestPath: string) => {
    const dir = path.dirname(manifestPath);
    if (seen.has(dir)) return;
    seen.add(dir);
    if (holdsAddon(dir)) addons.add(name);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const requireHere = createRequire(manifestPath);
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = requireHere.resolve
        .paths(dependency)
        ?.map((base) => path.join(base, dependency, 'package.json'))
        .find((candidate) => existsSync(candidate));
      if (found) visit(dependency, found);
    }
  };
  visit('@atelier/server', path.join(serverDir, 'package.json'));
  return [...addons].sort();
}

/** What proves each addon works on this Node; an addon the server gains must be given a check here. */
const checks: Record<string, () => Promise<void>> = {
  // The driver picks the build made for this Node's Node-API (sqlite-driver.ts); it must open a database.
  'better-sqlite3': async () => {
    const Database = loadSqliteDriver();
    const db = new Database(':memory:');
    expect(db.prepare('select sqlite_version() as v').get()).toEqual({ v: expect.any(String) });
    db.close();
  },
  'better-sqlite3-node20': async () => checks['better-sqlite3']!(),
  '@node-rs/argon2-linux-x64-gnu': async () => {
    const stored = await hash('a password');
    expect(await verify(stored, 'a password')).toBe(true);
    expect(await verify(stored, 'another one')).toBe(false);
  },
  '@img/sharp-linux-x64': async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const { data, info } = await sharp(png).resize(2, 2).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, [...data.subarray(0, 3)]]).toEqual([2, 2, [255, 0, 0]]);
  },
  // BullMQ packs job data with msgpackr, which falls back to plain JavaScript when its addon fails to load.
  '@msgpackr-extract/msgpackr-extract-linux-x64': async () => {
    const requireFromBullmq = createRequire(createRequire(serverDir + path.sep).resolve('bullmq'));
    const msgpackr = requireFromBullmq('msgpackr') as { isNativeAccelerationEnabled: boolean };
    expect(msgpackr.isNativeAccelerationEnabled).toBe(true);
  },
};

/**
 * The native addons are what a new Node version breaks (their Node-API level, their prebuilt binaries):
 * every one the server loads is loaded and used here, on whichever Node runs the tests.
 */
describe(`native addons on Node ${process.version}`, () => {
  const addons = runtimeAddons();

  it('are all known: each addon the server depends on has a check below', () => {
    expect(addons).toContain('better-sqlite3');
    expect(addons.filter((name) => !(name in checks))).toEqual([]);
  });

  it.each(Object.keys(checks))('%s loads and works, where installed', async (name) => {
    if (!addons.includes(name)) return;
    await checks[name]!();
  });
});
