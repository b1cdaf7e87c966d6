/** What a process is to its signals: Node's `process`, or a stand-in in a test. */
export interface SignalTarget {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/**
 * Closes the app on SIGINT or SIGTERM, once. The listeners stay: a second signal (Ctrl-C reaches
 * both `npm start` and the server, which it passes on) would otherwise meet Node's default action
 * and kill the process halfway through the shutdown the first began, its running jobs unreleased.
 */
export function closeOnSignals(
  close: (signal: string) => Promise<void>,
  target: SignalTarget = process,
): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    target.on(signal, () => {
      if (closing) return;
      closing = true;
      void close(signal);
    });
}
