import { useConfig } from '../../features/session/session-queries';
import { cn } from '../../lib/cn';

type Theme = 'light' | 'dark';

/**
 * An uploaded logo, its dark-theme version in the dark theme: both are in the page and CSS shows
 * one, unless `theme` pins it (a preview of one theme inside the other).
 */
function ThemedImage({
  light,
  dark,
  theme,
  alt,
  className,
}: {
  light: string;
  dark: string | null;
  theme?: Theme;
  alt: string;
  className: string;
}) {
  if (!dark || theme)
    return <img src={theme === 'dark' && dark ? dark : light} alt={alt} className={className} />;
  return (
    <>
      <img src={light} alt={alt} className={cn(className, 'dark:hidden')} />
      <img src={dark} alt={alt} className={cn(className, 'hidden dark:block')} />
    </>
  );
}

/** The logo an admin uploaded (appearance settings), else Atelier's mark. */
export function LogoMark({ className, theme }: { className?: string; theme?: Theme }) {
  const { logo, logo_dark } = useConfig().app;
  if (logo)
    return (
      <ThemedImage
        light={logo}
        dark={logo_dark}
        theme={theme}
        alt=""
        className={cn('size-8 shrink-0 rounded-[9px] object-contain', className)}
      />
    );
  return <BuiltInMark className={className} />;
}

/** Atelier's mark: an easel whose crossbar is a turntable, on a tile of the accent colour. */
function BuiltInMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8 shrink-0', className)} aria-hidden="true">
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
export function Logo({ name, className, theme }: { name: string; className?: string; theme?: Theme }) {
  const { logo_horizontal, logo_horizontal_dark } = useConfig().app;
  if (logo_horizontal)
    return (
      <span className={cn('inline-flex items-center', className)}>
        <ThemedImage
          light={logo_horizontal}
          dark={logo_horizontal_dark}
          theme={theme}
          alt={name}
          className="h-8 w-auto max-w-48 object-contain"
        />
      </span>
    );
  return (
    <span className={cn('inline-flex min-w-0 items-center gap-2.5', className)}>
      <LogoMark theme={theme} />
      <span className="truncate font-display text-xl font-semibold tracking-tight">{name}</span>
    </span>
  );
}

/** Where room is short (a phone's header): the square mark, or the wide logo narrowed when it is all there is. */
export function CompactLogo({ name, className }: { name: string; className?: string }) {
  const { logo, logo_horizontal } = useConfig().app;
  if (logo_horizontal && !logo) return <Logo name={name} className={cn('[&_img]:max-w-32', className)} />;
  return <LogoMark className={className} />;
}
