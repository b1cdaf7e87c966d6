/**
 * Runs a task and shows an indicator only if the task outlasts `delayMs`, so quick work never
 * flashes a popup (the logout rule: "Logging Out" after 300 ms).
 */
export async function withDelayedIndicator<T>(
  task: () => Promise<T>,
  indicator: (visible: boolean) => void,
  delayMs: number,
): Promise<T> {
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    indicator(true);
  }, delayMs);
  try {
    return await task();
  } finally {
    clearTimeout(timer);
    if (shown) indicator(false);
  }
}
