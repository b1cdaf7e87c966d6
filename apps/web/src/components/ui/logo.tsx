import { useConfig } from '../../features/session/session-queries';
import { cn } from '../../lib/cn';

/** The logo an admin uploaded (appearance settings), else Atelier's mark. */
export function LogoMark({ className }: { className?: string }) {
  const uploaded = useConfig().app.logo;
  if (uploaded)
    return <img src={uploaded} alt="" className={cn('size-8 rounded-[9px] object-contain', className)} />;
  return <BuiltInMark className={className} />;
}

/** Atelier's mark: an easel whose crossbar is a turntable, on a clay tile. */
function BuiltInMark({ className }: { className?: string }) {
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

/** The mark and the name, or the uploaded horizontal logo that carries both. */
export function Logo({ name, className }: { name: string; className?: string }) {
  const horizontal = useConfig().app.logo_horizontal;
  if (horizontal)
    return (
      <span className={cn('inline-flex items-center', className)}>
        <img src={horizontal} alt={name} className="h-8 w-auto max-w-48 object-contain" />
      </span>
    );
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span className="font-display text-xl font-semibold tracking-tight">{name}</span>
    </span>
  );
}
