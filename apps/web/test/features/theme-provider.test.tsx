import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyStoredTheme, ThemeProvider, useTheme } from '../../src/features/theme/theme-provider';
import { buildConfig } from '../fixtures';
import { createTestI18n, createTestQueryClient } from '../render-app';

/** jsdom has no matchMedia; this one can be flipped like an OS switching to dark mode. */
function installColorScheme(initiallyDark: boolean) {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const media = {
    matches: initiallyDark,
    addEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) =>
      listeners.delete(listener),
  };
  window.matchMedia = (() => media) as unknown as typeof window.matchMedia;
  return (dark: boolean) => {
    media.matches = dark;
    listeners.forEach((listener) => listener({ matches: dark } as MediaQueryListEvent));
  };
}

function ThemeProbe() {
  const { mode, resolved, setMode } = useTheme();
  return (
    <button type="button" onClick={() => setMode(resolved === 'dark' ? 'light' : 'dark')}>
      {mode}/{resolved}
    </button>
  );
}

async function renderTheme() {
  const i18n = await createTestI18n();
  render(
    <QueryClientProvider client={createTestQueryClient(buildConfig(), null)}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider>
          <ThemeProbe />
        </ThemeProvider>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('theme', () => {
  beforeEach(() => document.documentElement.classList.remove('dark'));
  afterEach(() => Reflect.deleteProperty(window, 'matchMedia'));

  it('follows the operating system live in system mode', async () => {
    const setOsDark = installColorScheme(false);
    await renderTheme();
    expect(screen.getByRole('button')).toHaveTextContent('system/light');
    expect(document.documentElement).not.toHaveClass('dark');

    act(() => setOsDark(true));
    expect(screen.getByRole('button')).toHaveTextContent('system/dark');
    expect(document.documentElement).toHaveClass('dark');
  });

  it('keeps an explicit choice whatever the system says, and remembers it', async () => {
    const setOsDark = installColorScheme(true);
    await renderTheme();
    await userEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button')).toHaveTextContent('light/light');
    act(() => setOsDark(true));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('atelier.theme_mode')).toBe('light');
  });

  it('follows the system where the browser refuses storage (a page in another site’s frame)', async () => {
    installColorScheme(true);
    const refused = vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    });
    try {
      applyStoredTheme();
      expect(document.documentElement).toHaveClass('dark');
      await renderTheme();
      await userEvent.click(screen.getByRole('button'));
      expect(screen.getByRole('button')).toHaveTextContent('light/light');
    } finally {
      refused.mockRestore();
    }
  });
});
