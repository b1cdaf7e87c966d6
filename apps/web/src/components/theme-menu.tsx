import type { ThemeMode } from '@atelier/contracts';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { useTheme } from '../features/theme/theme-provider';

const MODES: { mode: ThemeMode; icon: typeof Sun }[] = [
  { mode: 'light', icon: Sun },
  { mode: 'dark', icon: Moon },
  { mode: 'system', icon: Monitor },
];

/** Light, dark or system, for the public pages' header. */
export function ThemeMenu() {
  const { t } = useTranslation();
  const { mode, resolved, setMode } = useTheme();
  const Current = resolved === 'dark' ? Moon : Sun;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="grid size-10 cursor-pointer place-items-center rounded-xl text-muted transition-colors hover:bg-surface-2 hover:text-ink"
        aria-label={t('theme.choose')}
      >
        <Current className="size-[18px]" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-40 animate-rise-in rounded-xl border border-line bg-surface p-1 shadow-lift"
        >
          {MODES.map(({ mode: option, icon: Icon }) => (
            <DropdownMenu.Item
              key={option}
              onSelect={() => setMode(option)}
              className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-surface-2"
            >
              <Icon className="size-4 text-muted" aria-hidden />
              <span className="flex-1">{t(`theme.${option}`)}</span>
              {option === mode && <Check className="size-4 text-accent" aria-hidden />}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
