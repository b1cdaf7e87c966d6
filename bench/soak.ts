// Runs the named soak suites, or all of them: `npm run soak`, `npm run soak -- realtime`. A soak is a
// long run under load that asserts correctness (nothing lost, nothing leaked) and prints its figures;
// a failed suite makes the whole run exit non-zero, after the others have run.

const SUITES: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  realtime: () => import('./soak/realtime'),
  crash: () => import('./soak/crash'),
  fuzz: () => import('./soak/fuzz'),
};

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown soak suite ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}

const failed: string[] = [];
for (const name of asked.length > 0 ? asked : Object.keys(SUITES)) {
  console.log(`\n== ${name} ==`);
  const started = performance.now();
  try {
    const suite = await SUITES[name]!();
    await suite.run();
  } catch (error) {
    console.error(error);
    failed.push(name);
  }
  console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
if (failed.length > 0) console.error(`\nsoak failed: ${failed.join(', ')}`);
// Servers and clients are closed by each suite; exit even if a library left a timer.
process.exit(failed.length > 0 ? 1 : 0);
export {};
