import type { ThemeMode } from '@atelier/contracts';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { useTheme } from '../features/theme/theme-provider';
import { iconTriggerClass, menuContentClass, menuItemClass } from './ui/menu';

const MODES: { mode: ThemeMode; icon: typeof Sun }[] = [
  { mode: 'light', icon: Sun },
  { mode: 'dark', icon: Moon },
  { mode: 'system', icon: Monitor },
];

/** The theme menu itself, opened at once: ThemeMenu loads it when it is first asked for. */
export function ThemeDropdown() {
  const { t } = useTranslation();
  const { mode, resolved, setMode } = useTheme();
  const Current = resolved === 'dark' ? Moon : Sun;
  return (
    <DropdownMenu.Root defaultOpen>
      <DropdownMenu.Trigger className={iconTriggerClass} aria-label={t('theme.choose')}>
        <Current className="size-[18px]" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={menuContentClass}>
          {MODES.map(({ mode: option, icon: Icon }) => (
            <DropdownMenu.Item key={option} onSelect={() => setMode(option)} className={menuItemClass}>
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
