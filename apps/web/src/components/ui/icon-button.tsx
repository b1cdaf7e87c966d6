import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/cn';

interface IconButtonProps {
  icon: LucideIcon;
  /** Its accessible name, and its tooltip while the label is not shown. */
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** A toggle's state. */
  pressed?: boolean;
  /** The label beside the icon from `sm` up (a phone keeps the icon only). */
  labelled?: boolean;
  /** On the previewer's dark backdrop rather than the page's surfaces. */
  overlay?: boolean;
}

/**
 * A button that is an icon, named by its label: the previewer's header actions (labelled, over the
 * dark backdrop) and the rows of lists such as a file's versions.
 */
export function IconButton({
  icon: Icon,
  label,
  onClick,
  disabled,
  pressed,
  labelled = false,
  overlay = false,
}: IconButtonProps) {
  return (
    <button
      type="button"
      title={labelled ? undefined : label}
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'flex shrink-0 cursor-pointer items-center justify-center disabled:cursor-default disabled:opacity-50',
        labelled ? 'h-10 gap-2 rounded-xl px-3 text-sm font-medium' : 'size-9 rounded-lg',
        overlay
          ? 'hover:bg-white/10 aria-pressed:bg-white/15'
          : 'text-muted hover:bg-surface-2 hover:text-ink aria-pressed:bg-surface-2 aria-pressed:text-ink',
      )}
    >
      <Icon className="size-4" aria-hidden />
      {labelled && <span className="hidden sm:inline">{label}</span>}
    </button>
  );
}
