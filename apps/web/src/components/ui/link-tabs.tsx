import type { LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';

export interface LinkTab {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Drawn in the danger colour while open (a delete tab). */
  danger?: boolean;
}

/** Underlined tabs that are addresses (a user's or a plan's tabs); the row scrolls sideways on a phone. */
export function LinkTabs({ label, tabs }: { label: string; tabs: LinkTab[] }) {
  return (
    <nav
      aria-label={label}
      className="-mx-4 flex gap-1 overflow-x-auto border-b border-line px-4 sm:mx-0 sm:px-0"
    >
      {tabs.map(({ to, label: title, icon: Icon, danger }) => (
        <NavLink
          key={to}
          to={to}
          replace
          className={({ isActive }) =>
            cn(
              '-mb-px flex shrink-0 items-center gap-2 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors',
              isActive ? 'border-accent text-ink' : 'border-transparent text-muted hover:text-ink',
              danger && isActive && 'border-danger text-danger',
            )
          }
        >
          <Icon className="size-4" aria-hidden />
          {title}
        </NavLink>
      ))}
    </nav>
  );
}

/** The title and lead line of an open tab's panel. */
export function TabHeading({ title, lead }: { title: string; lead: string }) {
  return (
    <div className="mb-5 flex flex-col gap-1">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="text-sm text-muted">{lead}</p>
    </div>
  );
}
