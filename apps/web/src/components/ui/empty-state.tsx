import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A place with nothing in it yet: a dotted field, its mark, what it is for, and maybe a way to start. */
export function EmptyState({
  icon: Icon,
  title,
  body,
  children,
}: {
  icon: LucideIcon;
  title: string;
  body: string;
  children?: ReactNode;
}) {
  return (
    <div className="relative flex flex-col items-center gap-3 overflow-hidden rounded-2xl border border-dashed border-line px-6 py-20 text-center">
      <div
        aria-hidden
        className="absolute inset-0 opacity-50 [background-image:radial-gradient(var(--line)_1px,transparent_1px)] [background-size:18px_18px]"
      />
      <span className="relative grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
        <Icon className="size-7" aria-hidden />
      </span>
      <h2 className="relative font-display text-xl font-semibold">{title}</h2>
      <p className="relative max-w-sm text-sm leading-relaxed text-muted">{body}</p>
      {children && <div className="relative mt-2">{children}</div>}
    </div>
  );
}
