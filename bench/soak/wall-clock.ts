/**
 * Milliseconds since the epoch, to a fraction of a millisecond: each process's clock origin is read
 * from the system clock at its start, so readings of processes on one machine can be subtracted.
 */
export const wallClockMs = (): number => performance.timeOrigin + performance.now();
