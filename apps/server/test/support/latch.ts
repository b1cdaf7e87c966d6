/**
 * A pause in the code under test: it calls `reached` and waits for `gone`; the test waits for
 * `paused`, acts meanwhile, then calls `go`.
 */
export function latch() {
  let reached!: () => void;
  const paused = new Promise<void>((resolve) => (reached = resolve));
  let go!: () => void;
  const gone = new Promise<void>((resolve) => (go = resolve));
  return { reached, paused, go, gone };
}
