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

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}
