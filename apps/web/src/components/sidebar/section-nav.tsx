import type { LucideIcon } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { afterNextPaint } from '../../lib/after-paint';
import { cn } from '../../lib/cn';

/** One place of an area's own navigation (the file manager's views, the admin's sections). */
export interface SectionNavItem {
  id: string;
  to: string;
  labelKey: string;
  icon: LucideIcon;
  /** Other addresses that belong to it (an admin's user pages under Users); `to` always does. */
  also?: readonly string[];
}

const within = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** The item an address belongs to, or undefined outside the area. */
export function sectionNavItemAt<T extends SectionNavItem>(
  items: readonly T[],
  pathname: string,
): T | undefined {
  return items.find((item) => [item.to, ...(item.also ?? [])].some((base) => within(pathname, base)));
}

interface SectionNavProps {
  label: string;
  /** The small heading above the column on wide screens. */
  title: string;
  items: readonly SectionNavItem[];
  /** What goes under the open item in the column (the open view's folder tree). */
  underOpen?: ReactNode;
}

/**
 * An area's own navigation, as peers draw it: a column on wide screens, a row of tabs that scrolls
 * sideways above the screen on narrower ones (the open one scrolled into view), the open item marked.
 */
export function SectionNav({ label, title, items, underOpen }: SectionNavProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const open = sectionNavItemAt(items, pathname);
  const openLink = useRef<HTMLAnchorElement>(null);

  // After the next paint: scrolling measures the page, and on a cold load that laid the whole frame
  // out once more before the listing's first rows could show.
  useEffect(
    () => afterNextPaint(() => openLink.current?.scrollIntoView?.({ block: 'nearest', inline: 'center' })),
    [open?.id],
  );

  return (
    <nav aria-label={label} className="min-w-0">
      <div className="xl:sticky xl:top-24 xl:max-h-[calc(100dvh-7rem)] xl:overflow-y-auto">
        <p className="mb-2 hidden px-3 text-xs font-semibold tracking-wide text-muted uppercase xl:block">
          {title}
        </p>
        <ul className="-mx-4 flex gap-1.5 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:px-0 xl:flex-col xl:gap-0.5 xl:overflow-visible xl:pb-0">
          {items.map((item) => {
            const current = item.id === open?.id;
            const Icon = item.icon;
            return (
              <li key={item.id} className="shrink-0">
                <Link
                  ref={current ? openLink : undefined}
                  to={item.to}
                  aria-current={current ? 'page' : undefined}
                  className={cn(
                    'group flex h-9 items-center gap-2 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors',
                    'xl:h-auto xl:gap-3 xl:rounded-xl xl:border-0 xl:px-3 xl:py-2',
                    current
                      ? 'border-accent bg-accent-soft text-ink'
                      : 'border-line bg-surface text-muted hover:text-ink xl:bg-transparent xl:hover:bg-surface-2',
                  )}
                >
                  <Icon
                    className={cn('size-4', current ? 'text-accent' : 'text-muted group-hover:text-ink')}
                    aria-hidden
                  />
                  {t(item.labelKey)}
                </Link>
                {current && underOpen}
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}

/** A screen of an area beside its navigation: the column left on wide screens, the tabs on top below. */
export function SectionFrame({ nav, children }: { nav: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-5 xl:grid-cols-[13.5rem_minmax(0,1fr)] xl:gap-8">
      {nav}
      <div className="min-w-0">{children}</div>
    </div>
  );
}
