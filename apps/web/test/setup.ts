import { SIGNED_IN_COOKIE } from '@atelier/contracts';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { overlayStore } from '../src/components/overlays/overlay-store';
import { selectionStore } from '../src/features/files/selection-store';

// Lazy page modules load slower on a busy machine; this is how long findBy/waitFor may wait, not a timing check.
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks these browser APIs that Radix and the router's scroll reset call.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoopResizeObserver;
window.scrollTo = () => undefined;

// The app's stores live as long as the module: every test starts with no selection, popup or toast.
// The server's mark of a browser with a session: tests answer /api/user as they need, signed in or not.
beforeEach(() => {
  document.cookie = `${SIGNED_IN_COOKIE}=1; path=/`;
  selectionStore.set(() => ({ selectMode: false, clipboard: [], anchorId: null }));
  overlayStore.set((state) => ({ ...state, popup: null, toasts: [], spotlight: false }));
});

// A worker runs many files in one jsdom (vitest.config.ts): what a test changed of it goes with the test.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]?.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
