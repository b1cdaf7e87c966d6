import type { ThemeMode } from '@atelier/contracts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useSession } from '../session/session-queries';
import { readLocal, writeLocal } from '../../lib/local-store';
import { useUserSettings } from '../session/use-user-settings';

const STORAGE_KEY = 'atelier.theme_mode';
const DARK_QUERY = '(prefers-color-scheme: dark)';

interface ThemeContextValue {
  mode: ThemeMode;
  resolved: 'light' | 'dark';
  setMode: (mode: ThemeMode) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function storedMode(): ThemeMode {
  const value = readLocal(STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

function prefersDark() {
  return window.matchMedia?.(DARK_QUERY)?.matches ?? false;
}

/** Called before the first render so a dark-mode visitor never sees a light flash. */
export function applyStoredTheme() {
  const mode = storedMode();
  document.documentElement.classList.toggle('dark', mode === 'dark' || (mode === 'system' && prefersDark()));
}

function useSystemPrefersDark() {
  const [dark, setDark] = useState(prefersDark);
  useEffect(() => {
    const media = window.matchMedia?.(DARK_QUERY);
    if (!media) return;
    const onChange = (event: MediaQueryListEvent) => setDark(event.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return dark;
}

/**
 * Light, dark or system. A signed-in user's choice lives in their settings (theme_mode); anonymous
 * visitors keep theirs in this browser (lib/local-store). System follows the OS live.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const updateSetting = useUserSettings();
  const [localMode, setLocalMode] = useState(storedMode);
  const systemDark = useSystemPrefersDark();
  const mode = user?.relationships.settings.data.attributes.theme_mode ?? localMode;
  const resolved = mode === 'system' ? (systemDark ? 'dark' : 'light') : mode;

  useLayoutEffect(() => {
    document.documentElement.classList.toggle('dark', resolved === 'dark');
    writeLocal(STORAGE_KEY, mode);
  }, [resolved, mode]);

  const setMode = useCallback(
    (next: ThemeMode) => {
      setLocalMode(next);
      if (user) updateSetting('theme_mode', next);
    },
    [user, updateSetting],
  );

  const value = useMemo(() => ({ mode, resolved, setMode }), [mode, resolved, setMode]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme() {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme needs a ThemeProvider');
  return value;
}
