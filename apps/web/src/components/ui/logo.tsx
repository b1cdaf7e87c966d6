import { cn } from '../../lib/cn';

/** Atelier's mark: an easel whose crossbar is a turntable, on a clay tile. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="9" fill="var(--accent)" />
      <path
        d="M16 7 9.5 25M16 7l6.5 18M16 7v4"
        stroke="var(--on-accent)"
        strokeWidth="2.2"
        strokeLinecap="round"
        fill="none"
      />
      <ellipse cx="16" cy="18.5" rx="6.2" ry="2.1" fill="none" stroke="var(--on-accent)" strokeWidth="2" />
    </svg>
  );
}

export function Logo({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span className="font-display text-xl font-semibold tracking-tight">{name}</span>
    </span>
  );
}
