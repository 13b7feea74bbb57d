import { Messages } from '@rarelens/contract';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../components/button.tsx';
import { AlertIcon } from '../components/icons.tsx';
import { LogoMark } from '../components/logo.tsx';
import { logger } from '../lib/logger.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { useEffect } from 'react';

/** The error screen for fatal or unhandled errors (§8); a 404 response shows the 404 page. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    if (!(isRouteErrorResponse(error) && error.status === 404)) logger.error('Unhandled application error', error);
  }, [error]);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-ink-50 px-4 text-center">
      <LogoMark className="size-10" />
      <div className="flex size-12 items-center justify-center rounded-full bg-danger-50 text-2xl text-danger-600">
        <AlertIcon />
      </div>
      <h1 className="text-2xl font-semibold text-ink-900">{Messages.somethingWentWrong}</h1>
      <p className="max-w-md text-sm text-ink-500">An unexpected error stopped this page. Reloading usually helps; if it keeps happening, contact us.</p>
      <div className="flex gap-2">
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
        <Button variant="outline" onClick={() => window.location.assign('/')}>
          Go to the home page
        </Button>
      </div>
    </main>
  );
}
