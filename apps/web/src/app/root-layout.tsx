import { Suspense, lazy, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { BusySpinner } from '../components/overlays/busy-overlays';
import { CookieDisclaimer } from '../components/overlays/cookie-disclaimer';
import { overlayStore } from '../components/overlays/overlay-store';
import { Toasts } from '../components/overlays/toasts';
import { PageLoader } from '../components/page-loader';
import type { RouteHandle } from '../components/sidebar/sidebar-entries';
import { useConfig, useSession } from '../features/session/session-queries';
import { useStore } from '../lib/create-store';
import { isWizardPath } from './guards';
import { useAccentColor } from './use-accent-color';
import { useAppIcons } from './use-app-icons';

/** Paths that stay open while the instance is in maintenance (admins keep everything). */
const MAINTENANCE_OPEN = ['/temporary-unavailable', '/sign-in'];

/** "Page · Atelier" from the deepest route's title, unless the page names itself. */
function useDocumentTitle(appName: string) {
  const { t } = useTranslation();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const titleKey = handle?.titleKey;
  const ownTitle = handle?.ownTitle ?? false;
  useEffect(() => {
    if (ownTitle) return;
    document.title = titleKey ? `${t(titleKey)} · ${appName}` : appName;
  }, [t, titleKey, ownTitle, appName]);
}

// Most visits show no dialog: the popups and their dialog library load with the first one shown.
const Dialogs = lazy(async () => ({ default: (await import('../components/overlays/popups')).Dialogs }));

function DialogOverlays() {
  const shown = useStore(overlayStore, (state) => state.popup !== null || state.loggingOut);
  return (
    shown && (
      <Suspense>
        <Dialogs />
      </Suspense>
    )
  );
}

/** Wraps every page: installation and maintenance gates, scroll reset, and the global overlays. */
export function RootLayout() {
  const config = useConfig();
  const { user, pending } = useSession();
  const { pathname } = useLocation();

  // Another address starts at the top. The first one is there already: scrolling then would lay the
  // whole page out in the effects React runs before its first paint.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  useDocumentTitle(config.app.name);
  useAppIcons(config.app);
  useAccentColor(config.app.accent);

  const installed = config.installation === 'installation-done';
  if (!installed && !isWizardPath(pathname)) return <Navigate to="/setup-wizard/status-check" replace />;
  if (
    installed &&
    config.maintenance &&
    !pending &&
    user?.attributes.role !== 'admin' &&
    !MAINTENANCE_OPEN.includes(pathname)
  ) {
    return <Navigate to="/temporary-unavailable" replace />;
  }

  return (
    <>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <DialogOverlays />
      <Toasts />
      <BusySpinner />
      <CookieDisclaimer installed={installed} />
    </>
  );
}
