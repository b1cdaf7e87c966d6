import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { homePathFor, useSession } from '../features/session/session-queries';

/** The setup wizard's paths, the only ones reachable while installation is needed. */
export function isWizardPath(pathname: string) {
  return pathname === '/install' || pathname.startsWith('/install/') || pathname.startsWith('/setup-wizard/');
}

/** Anonymous visitors go to SignIn with the path they wanted in `redirect`. */
export function RequireAuth() {
  const { user, pending } = useSession();
  const location = useLocation();
  if (pending) return <PageLoader />;
  if (!user) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/sign-in?redirect=${redirect}`} replace />;
  }
  return <Outlet />;
}

/** Admin routes: anyone else goes back to their own home. */
export function RequireAdmin() {
  const { user } = useSession();
  if (!user) return null;
  if (user.attributes.role !== 'admin') return <Navigate to={homePathFor(user.attributes)} replace />;
  return <Outlet />;
}
