// Runs the named benchmarks, or all of them: `npm run bench`, `npm run bench -- render upload`.
// Each one prints its own figures and ratios against a peer or a limit measured in the same run.

const BENCHMARKS: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  upload: () => import('./upload'),
  browse: () => import('./browse'),
  zip: () => import('./zip'),
  render: () => import('./render'),
  studio: () => import('./studio'),
  share: () => import('./share'),
  webdav: () => import('./webdav'),
  pages: () => import('./pages'),
  start: () => import('./start'),
  versions: () => import('./versions'),
  occlusion: () => import('./occlusion'),
  sync: () => import('./sync'),
  export: () => import('./export'),
  product: () => import('./product'),
};

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

for (const name of asked.length > 0 ? asked : Object.keys(BENCHMARKS)) {
  console.log(`\n== ${name} ==`);
  const started = performance.now();
  const benchmark = await BENCHMARKS[name]!();
  await benchmark.run();
  console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
// Engines, pools and servers are closed by each benchmark; exit even if a library left a timer.
process.exit(0);
export {};
