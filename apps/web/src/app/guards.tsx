import type { ComponentType } from 'react';
import { Navigate, Outlet, useLocation, useParams, useSearchParams } from 'react-router';
import { PageSpinner } from '../components/spinner.tsx';
import { useProduct } from '../features/cases/cases.api.ts';
import { ApiError } from '../lib/api-client.ts';
import { loginPathFor, safeRedirectPath } from '../lib/redirect.ts';
import { useSession } from '../lib/session.tsx';
import { NotFoundPage } from './not-found-page.tsx';

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

/**
 * The "chat" guard (§2): GenomeTalks is for whoever may read the case — its owner or a user it
 * is shared with. Anyone else gets the not-found page, as the API answers 404.
 */
export function ChatGuard() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);
  if (product.isPending) return <PageSpinner label="Loading case" />;
  if (product.isError && product.error instanceof ApiError && (product.error.status === 404 || product.error.status === 400)) return <NotFoundPage />;
  return <Outlet />;
}

/** Route guards by name (§2). */
const guards: Readonly<Record<string, ComponentType>> = {
  auth: RequireAuth,
  'signed-out': SignedOutOnly,
  chat: ChatGuard,
};

/** The guard named `name`; an unknown name is a programming error (§2: it raises). */
export function guardNamed(name: string): ComponentType {
  const guard = guards[name];
  if (!guard) throw new Error(`Unknown route guard: ${name}`);
  return guard;
}
