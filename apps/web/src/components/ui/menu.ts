// One look for every dropdown and context menu (file actions, upload, sort, theme, public navigation).

export const menuContentClass =
  'z-50 min-w-52 animate-fade-in rounded-xl border border-line bg-surface p-1.5 shadow-lift';

export const menuItemClass =
  'flex h-9 cursor-pointer items-center gap-2.5 rounded-lg px-2.5 text-sm text-ink outline-none select-none data-[highlighted]:bg-surface-2';

/** A menu opened from an icon button (the theme menu of the public pages). */
export const iconTriggerClass =
  'grid size-10 cursor-pointer place-items-center rounded-xl text-muted transition-colors hover:bg-surface-2 hover:text-ink';
