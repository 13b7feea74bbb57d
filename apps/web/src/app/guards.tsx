import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '../components/spinner.tsx';
import { loginPathFor } from '../lib/redirect.ts';
import { useSession } from '../lib/session.tsx';

/** Where a signed-in user lands (and where signed-out-only pages send them). */
export const HomePath = '/home';

/** Protected pages: a visitor goes to /login?redirect=<the wanted page>. */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Loading your session" />;
  if (status === 'unauthenticated') {
    return <Navigate to={loginPathFor(location.pathname + location.search + location.hash)} replace />;
  }
  return <Outlet />;
}

/** Signed-out-only pages (landing, login, register, reset): a signed-in user goes to /home. */
export function SignedOutOnly() {
  const { status } = useSession();
  if (status === 'loading') return <PageSpinner label="Loading your session" />;
  if (status === 'authenticated') return <Navigate to={HomePath} replace />;
  return <Outlet />;
}
