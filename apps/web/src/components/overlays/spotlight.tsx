import { Search } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/create-store';
import { overlayStore, setSpotlight } from './overlay-store';

/** Ctrl/Cmd+K opens the spotlight anywhere in the signed-in area. */
export function useSpotlightShortcut() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSpotlight(!overlayStore.get().spotlight);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function Spotlight() {
  const { t } = useTranslation();
  const open = useStore(overlayStore, (state) => state.spotlight);
  return (
    <Dialog.Root open={open} onOpenChange={setSpotlight}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="spotlight-backdrop" className="fixed inset-0 z-50 animate-fade-in bg-backdrop backdrop-blur-[2px]" />
        <Dialog.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 animate-rise-in overflow-hidden rounded-2xl border border-line bg-surface shadow-lift focus:outline-none">
          <Dialog.Title className="sr-only">{t('spotlight.title')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('spotlight.hint')}</Dialog.Description>
          <label className="flex items-center gap-3 border-b border-line px-4">
            <Search className="size-5 text-muted" aria-hidden />
            <input
              autoFocus
              type="search"
              placeholder={t('spotlight.placeholder')}
              aria-label={t('spotlight.placeholder')}
              className="h-14 flex-1 bg-transparent text-base outline-none placeholder:text-muted/70"
            />
            <kbd className="rounded-md border border-line px-1.5 py-0.5 text-[11px] text-muted">Esc</kbd>
          </label>
          <p className="px-5 py-8 text-center text-sm text-muted">{t('spotlight.hint')}</p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
