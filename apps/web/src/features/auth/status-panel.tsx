import { CircleCheck, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A confirmation screen: icon, headline, explanation and the next step. */
export function StatusPanel({
  icon: Icon = CircleCheck,
  title,
  body,
  children,
}: {
  icon?: LucideIcon;
  title: string;
  body: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <span className="grid size-16 place-items-center rounded-2xl bg-accent-soft text-accent shadow-soft">
        <Icon className="size-8" aria-hidden />
      </span>
      <h1 className="font-display text-3xl font-semibold tracking-tight">{title}</h1>
      <p className="max-w-sm text-sm leading-relaxed text-muted">{body}</p>
      {children && <div className="mt-2 flex flex-wrap justify-center gap-3">{children}</div>}
    </div>
  );
}
