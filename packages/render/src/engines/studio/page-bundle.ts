import { build } from 'esbuild';
import { packageRoot } from '../../package-root';

/** Each page entry's bundle, made once per process; a failed one is tried again on the next ask. */
const bundles = new Map<string, Promise<string>>();

function bundled(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = bundlePage(entry);
    bundles.set(entry, bundle);
    bundle.catch(() => bundles.delete(entry));
  }
  return bundle;
}

/**
 * The studio page's code (`./page`, entry `page/main.ts`) as one ES module for the browser; three.js
 * stays an import the page's import map resolves. Bundled with esbuild on first use in a process and
 * kept: a few tens of milliseconds once, and the same path whether the engine runs from its
 * TypeScript sources (tests, tsx) or from a build, which keeps the sources beside it.
 */
export function studioPageScript(): Promise<string> {
  return bundled('main.ts');
}

/** The page's frame relay (`page/frame-relay.ts`, a shared worker's script), bundled likewise. */
export function frameRelayScript(): Promise<string> {
  return bundled('frame-relay.ts');
}

async function bundlePage(entry: string): Promise<string> {
  const result = await build({
    absWorkingDir: packageRoot(),
    entryPoints: [`src/engines/studio/page/${entry}`],
    bundle: true,
    write: false,
    format: 'esm',
    // A Node import in page code fails here, not in the browser.
    platform: 'browser',
    target: 'es2022',
    external: ['three'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
