import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useConfig } from '../features/session/session-queries';
import { cn } from '../lib/cn';
import { Avatar, type AvatarPerson } from './avatar';
import { ThemeMenu } from './theme-menu';
import { CompactLogo, Logo } from './ui/logo';

/** The account behind a link, as a public page may show it. */
export interface LinkOwner {
  name: string;
  avatar: AvatarPerson['avatar'];
}

/**
 * The frame of the pages an outsider opens from a link (share pages, upload requests): the app's
 * mark, who is behind the link once known, the theme menu; no sidebar and no account needed.
 */
export function PublicFrame({
  owner,
  ownerLabel,
  search,
  children,
}: {
  owner: LinkOwner | undefined;
  /** What the owner did: "Shared by", "Requested by". */
  ownerLabel: string;
  /** The search of what the link opens, where the visitor may look around (a shared folder). */
  search?: ReactNode;
  children: ReactNode;
}) {
  const config = useConfig();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-line bg-paper/85 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-8">
          {/* A page load: the product page's own entry has no router (product-main.tsx). */}
          <a href="/" aria-label={config.app.name} className="min-w-0 shrink-0">
            <CompactLogo name={config.app.name} className="sm:hidden" />
            <Logo name={config.app.name} className="hidden sm:inline-flex" />
          </a>
          {search}
          <div className="ml-auto flex min-w-0 items-center gap-2">
            {owner && (
              <p className="flex min-w-0 items-center gap-2.5 rounded-full border border-line bg-surface py-1 pr-3.5 pl-1 text-sm shadow-soft">
                <Avatar
                  person={{ name: owner.name, email: '', color: 'var(--accent)', avatar: owner.avatar }}
                  size={28}
                />
                <span className="min-w-0 truncate">
                  {/* Beside a search on a phone, the name keeps the room; the page says it is shared. */}
                  <span className={cn('text-muted', search && 'max-sm:hidden')}>{ownerLabel}</span>{' '}
                  <span className="font-semibold text-ink">{owner.name}</span>
                </span>
              </p>
            )}
            <ThemeMenu />
          </div>
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-6 sm:px-8 sm:py-10">
        {children}
      </main>
    </div>
  );
}

/** A public page's one message, in the middle of the frame: a failure, a closed link, a thank-you. */
export function FrameNotice({
  icon: Icon,
  tone = 'accent',
  title,
  body,
  alert = false,
  children,
}: {
  icon: LucideIcon;
  tone?: 'accent' | 'danger' | 'success';
  title: string;
  body: ReactNode;
  /** Read out at once (a failure). */
  alert?: boolean;
  /** Buttons under the message. */
  children?: ReactNode;
}) {
  return (
    <div
      role={alert ? 'alert' : undefined}
      className="m-auto flex max-w-md animate-rise-in flex-col items-center gap-4 py-10 text-center"
    >
      <span
        className={cn(
          'grid size-16 place-items-center rounded-3xl shadow-soft',
          tone === 'danger' && 'bg-danger-soft text-danger',
          tone === 'success' && 'bg-success-soft text-success',
          tone === 'accent' && 'bg-accent-soft text-accent',
        )}
      >
        <Icon className="size-8" aria-hidden />
      </span>
      <h1 className="font-display text-2xl font-semibold text-balance">{title}</h1>
      <div className="text-sm leading-relaxed text-muted">{body}</div>
      {children && <div className="mt-1 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}
