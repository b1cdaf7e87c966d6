/**
 * Runs `callback` once the browser has painted the next frame: work a screen's first paint does not
 * need (scrolling a tab into view, rows beyond the visible ones) waits until what is visible shows.
 * Returns a function that cancels it.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A frame's callbacks run before its paint; a task queued from one runs after it.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
