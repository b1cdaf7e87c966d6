import type { ReactNode } from 'react';

export function StepHeader({ title, lead }: { title: string; lead: ReactNode }) {
  return (
    <div className="mb-7 flex flex-col gap-2">
      <h1 className="font-display text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
      <p className="text-sm leading-relaxed text-muted">{lead}</p>
    </div>
  );
}

/** Back/skip on the left, the step's main action on the right (stacked on phones). */
export function StepActions({ children }: { children: ReactNode }) {
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:items-center sm:justify-end">
      {children}
    </div>
  );
}
