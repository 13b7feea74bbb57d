import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { PageSpinner } from '../components/spinner.tsx';
import { loginPathFor, safeRedirectPath } from '../lib/redirect.ts';
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

/** Where a user who just signed in (or arrives signed in) goes: ?redirect=… when safe, else /home. */
export function usePostLoginPath(): string {
  const [searchParams] = useSearchParams();
  return safeRedirectPath(searchParams.get('redirect')) ?? HomePath;
}

/**
 * Signed-out-only pages (landing, login, register, reset): a signed-in user goes to /home —
 * or to the page named by ?redirect=, so that this guard and the login page, which both react
 * to a fresh sign-in, always agree on the destination.
 */
export function SignedOutOnly() {
  const { status } = useSession();
  const target = usePostLoginPath();
  if (status === 'loading') return <PageSpinner label="Loading your session" />;
  if (status === 'authenticated') return <Navigate to={target} replace />;
  return <Outlet />;
}
