import type { LucideIcon } from 'lucide-react';

/**
 * One action of an item's menu. Its own file: the file actions let a screen add entries, and the
 * menu that shows them uses the file actions, so neither module can hold it without a cycle.
 */
export interface MenuEntry {
  key: string;
  label: string;
  icon: LucideIcon;
  danger?: boolean;
  run: () => void;
}
