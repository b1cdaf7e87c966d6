/**
 * The smallest scheduler: tasks run at a fixed interval in the worker process. Timers never keep
 * the process alive, and closing the app's services stops them all.
 */
export class Schedule {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Calls `task` every `everyMs` milliseconds until the schedule stops. */
  every(everyMs: number, task: () => void): void {
    const timer = setInterval(task, everyMs);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Runs `task` now and then every `everyMs`; a failure is handed to `onError` (a log line) and the
   * next run comes as planned. Answers once the first run has settled.
   */
  repeat(everyMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): Promise<void> {
    const run = () => task().then(() => undefined, onError);
    this.every(everyMs, () => void run());
    return run();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}
