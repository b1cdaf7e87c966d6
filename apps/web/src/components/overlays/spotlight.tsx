import { Search } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FileSearch } from '../../features/files/file-search';
import { ownerSource, type SearchableSource } from '../../features/files/file-source';
import { useStore } from '../../lib/create-store';
import { cn } from '../../lib/cn';
import { overlayStore, setSpotlight } from './overlay-store';

/** Ctrl/Cmd+K opens the spotlight anywhere on a page that has one (`enabled`). */
export function useSpotlightShortcut(enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSpotlight(!overlayStore.get().spotlight);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

/** A header's search field: opens the spotlight, with its shortcut; on phones the icon alone. */
export function SpotlightButton({ label, className }: { label: string; className?: string }) {
  const { t } = useTranslation();
  const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <button
      type="button"
      onClick={() => setSpotlight(true)}
      className={cn(
        'flex h-10 shrink-0 cursor-pointer items-center gap-2.5 rounded-xl border border-line bg-surface px-3 text-sm text-muted shadow-soft transition-colors hover:text-ink',
        className,
      )}
      aria-label={t('spotlight.open')}
    >
      <Search className="size-4" aria-hidden />
      <span className="hidden min-w-0 flex-1 truncate text-left sm:inline">{label}</span>
      <kbd className="hidden rounded-md border border-line px-1.5 py-0.5 font-sans text-[11px] sm:inline">
        {isMac ? '⌘K' : 'Ctrl K'}
      </kbd>
    </button>
  );
}

/** The search over a source (the owner's files unless a share page names its own). */
export function Spotlight({ source = ownerSource, label }: { source?: SearchableSource; label?: string }) {
  const { t } = useTranslation();
  const open = useStore(overlayStore, (state) => state.spotlight);
  // A page that goes away (a share that locks or ends) must not leave it open for the next one.
  useEffect(() => () => setSpotlight(false), []);
  return (
    <Dialog.Root open={open} onOpenChange={setSpotlight}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-testid="spotlight-backdrop"
          className="fixed inset-0 z-50 animate-fade-in bg-backdrop backdrop-blur-[2px]"
        />
        <Dialog.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 animate-rise-in overflow-hidden rounded-2xl border border-line bg-surface shadow-lift focus:outline-none">
          <Dialog.Title className="sr-only">{t('spotlight.title')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('files.search_hint')}</Dialog.Description>
          <FileSearch
            source={source}
            label={label ?? t('spotlight.placeholder')}
            onClose={() => setSpotlight(false)}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
