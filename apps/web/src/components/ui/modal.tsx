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
}

/** A centred dialog over a dimmed backdrop; Escape and a backdrop click close it (Radix). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  hideTitle,
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-backdrop backdrop-blur-[2px]" />
        <Dialog.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 animate-rise-in rounded-3xl border border-line bg-surface p-6 shadow-lift focus:outline-none',
            className,
          )}
        >
          <Dialog.Title
            className={cn('font-display text-xl font-semibold text-balance', hideTitle && 'sr-only')}
          >
            {title}
          </Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-2 text-sm leading-relaxed text-muted">
              {description}
            </Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
