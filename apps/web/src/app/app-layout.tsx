import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { Avatar } from '../components/avatar';
import { NotificationBell } from '../components/notification-bell';
import { Spotlight, SpotlightButton, useSpotlightShortcut } from '../components/overlays/spotlight';
import { PageLoader } from '../components/page-loader';
import { MaintenanceBar } from '../components/maintenance-bar';
import { RenderActivityDot } from '../features/projects/render-activity';
import { RestrictionBar } from '../components/restriction-bar';
import { Sidebar } from '../components/sidebar/sidebar';
import { CompactLogo } from '../components/ui/logo';
import { RemoteUploadBar } from '../features/files/upload-panel';
import { useItemChanges } from '../features/files/use-item-changes';
import { useConfig, useSession } from '../features/session/session-queries';
import { useAccountUpdates } from '../features/session/use-account-updates';
import { useTranslationUpdates } from '../features/session/use-translation-updates';

/** The signed-in frame of /admin, /user, /platform, /projects and /gallery. */
export function AppLayout() {
  const { t } = useTranslation();
  const config = useConfig();
  const { resource } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useSpotlightShortcut();
  useAccountUpdates();
  useTranslationUpdates();
  useItemChanges();
  if (!resource) return null;
  const user = resource.data;
  const unread = user.relationships.unreadNotifications.data.length;

  return (
    <div className="min-h-dvh lg:pl-72">
      <aside className="fixed inset-y-0 left-0 hidden w-72 border-r border-line bg-paper lg:block">
        <Sidebar user={user} />
      </aside>

      <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <Dialog.Portal>
          <Dialog.Overlay
            data-testid="menu-backdrop"
            className="fixed inset-0 z-50 animate-fade-in bg-backdrop lg:hidden"
          />
          <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-[86vw] max-w-80 animate-slide-in-left border-r border-line bg-paper shadow-lift focus:outline-none lg:hidden">
            <Dialog.Title className="sr-only">{t('sidebar.navigation')}</Dialog.Title>
            <Dialog.Description className="sr-only">{t('sidebar.navigation')}</Dialog.Description>
            <Dialog.Close
              className="absolute top-5 right-4 grid size-9 cursor-pointer place-items-center rounded-xl text-muted hover:bg-surface-2"
              aria-label={t('actions.close')}
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
            <Sidebar user={user} onNavigate={() => setMenuOpen(false)} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>

      <div className="flex min-h-dvh flex-col">
        {config.maintenance && <MaintenanceBar />}
        <RestrictionBar restrictions={resource.meta.restrictions} />
        <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-line bg-paper/85 px-3 backdrop-blur-md sm:px-8">
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            className="relative grid size-10 cursor-pointer place-items-center rounded-xl text-ink hover:bg-surface-2 lg:hidden"
            aria-label={t('sidebar.open_menu')}
          >
            <Menu className="size-5" aria-hidden />
            <RenderActivityDot />
          </button>
          <Link to="/" className="lg:hidden" aria-label={config.app.name}>
            <CompactLogo name={config.app.name} />
          </Link>
          <SpotlightButton label={t('spotlight.placeholder')} className="ml-auto sm:w-80 lg:ml-0" />
          <div className="flex items-center gap-1 lg:ml-auto">
            <NotificationBell unread={unread} />
            <Link to="/user/profile" aria-label={t('sidebar.profile')} className="ml-1 rounded-full">
              <Avatar person={user.attributes} size={34} />
            </Link>
          </div>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-8 sm:py-10">
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <Spotlight />
      <RemoteUploadBar />
    </div>
  );
}
