import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Hide the title visually (it stays for screen readers). */
  hideTitle?: boolean;
  /**
   * Content that may be taller than a phone: it scrolls inside the dialog, with its ModalActions
   * kept in view at the bottom, and on a phone the dialog is a sheet from the bottom edge.
   */
  sheet?: boolean;
}

const centred = 'top-1/2 left-1/2 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-3xl p-6';
const bottomSheet =
  'inset-x-0 bottom-0 mx-auto flex max-h-[calc(100dvh-1rem)] flex-col overflow-hidden rounded-t-3xl sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:max-h-[calc(100dvh-2rem)] sm:w-[calc(100vw-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-3xl';

/** A centred dialog over a dimmed backdrop; Escape and a backdrop click close it (Radix). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  hideTitle,
  sheet,
}: ModalProps) {
  const heading = (
    <>
      <Dialog.Title className={cn('font-display text-xl font-semibold text-balance', hideTitle && 'sr-only')}>
        {title}
      </Dialog.Title>
      {description ? (
        <Dialog.Description className="mt-2 text-sm leading-relaxed text-muted">
          {description}
        </Dialog.Description>
      ) : (
        <Dialog.Description className="sr-only">{title}</Dialog.Description>
      )}
    </>
  );
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-backdrop backdrop-blur-[2px]" />
        <Dialog.Content
          className={cn(
            'fixed z-50 max-w-md animate-rise-in border border-line bg-surface shadow-lift focus:outline-none',
            sheet ? bottomSheet : centred,
            className,
          )}
        >
          {sheet ? (
            // The scroller has no bottom padding: ModalActions stick to its very edge.
            <div className="min-h-0 overflow-y-auto overscroll-contain px-6 pt-6">
              {heading}
              <div className="pb-6">{children}</div>
            </div>
          ) : (
            <>
              {heading}
              {children}
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * A sheet's buttons: they stay at the bottom edge while its content scrolls beneath them, a line
 * above them saying there is more.
 */
export function ModalActions({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'sticky bottom-0 z-10 -mx-6 -mb-6 flex flex-col-reverse gap-2 border-t border-line bg-surface px-6 pt-4 pb-6 sm:flex-row sm:justify-end',
        className,
      )}
    >
      {children}
    </div>
  );
}
