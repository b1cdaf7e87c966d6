// One look for every dropdown and context menu (file actions, upload, sort, theme, public navigation).

export const menuContentClass =
  'z-50 min-w-52 animate-fade-in rounded-xl border border-line bg-surface p-1.5 shadow-lift';

export const menuItemClass =
  'flex h-9 cursor-pointer items-center gap-2.5 rounded-lg px-2.5 text-sm text-ink outline-none select-none data-[highlighted]:bg-surface-2';
