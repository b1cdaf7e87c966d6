import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FileSearch } from '../../features/files/file-search';
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
        <Dialog.Overlay
          data-testid="spotlight-backdrop"
          className="fixed inset-0 z-50 animate-fade-in bg-backdrop backdrop-blur-[2px]"
        />
        <Dialog.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 animate-rise-in overflow-hidden rounded-2xl border border-line bg-surface shadow-lift focus:outline-none">
          <Dialog.Title className="sr-only">{t('spotlight.title')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('files.search_hint')}</Dialog.Description>
          <FileSearch onClose={() => setSpotlight(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
