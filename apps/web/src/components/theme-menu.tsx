import { Moon, Sun } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTheme } from '../features/theme/theme-provider';
import { iconTriggerClass } from './ui/menu';

// The menu's library (positioning, focus and dismissal) is most of what the sign-in page would
// download besides the form: it loads when someone opens the menu.
const ThemeDropdown = lazy(async () => ({ default: (await import('./theme-dropdown')).ThemeDropdown }));

/** Light, dark or system, for the public pages' header. */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { resolved } = useTheme();
  const [asked, setAsked] = useState(false);
  const Current = resolved === 'dark' ? Moon : Sun;
  const trigger = (
    <button
      type="button"
      className={iconTriggerClass}
      aria-label={t('theme.choose')}
      aria-haspopup="menu"
      onClick={() => setAsked(true)}
    >
      <Current className="size-[18px]" aria-hidden />
    </button>
  );
  if (!asked) return trigger;
  return (
    <Suspense fallback={trigger}>
      <ThemeDropdown />
    </Suspense>
  );
}
