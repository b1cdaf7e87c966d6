import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { BusySpinner, LoggingOutPopup } from '../components/overlays/busy-overlays';
import { CookieDisclaimer } from '../components/overlays/cookie-disclaimer';
import { Popups } from '../components/overlays/popups';
import { Toasts } from '../components/overlays/toasts';
import { PageLoader } from '../components/page-loader';
import { useConfig, useSession } from '../features/session/session-queries';
import { isWizardPath } from './guards';

/** Paths that stay open while the instance is in maintenance (admins keep everything). */
const MAINTENANCE_OPEN = ['/temporary-unavailable', '/sign-in'];

/** Wraps every page: installation and maintenance gates, scroll reset, and the global overlays. */
export function RootLayout() {
  const config = useConfig();
  const { user, pending } = useSession();
  const { pathname } = useLocation();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

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
      <Popups />
      <Toasts />
      <BusySpinner />
      <LoggingOutPopup />
      <CookieDisclaimer installed={installed} />
    </>
  );
}
