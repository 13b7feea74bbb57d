import { createBrowserRouter } from 'react-router';
import { trackPendingNavigation } from './chunk-reload.ts';
import { routes } from './routes.tsx';

/** The app's data router (library mode). */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  trackPendingNavigation(() => router.state.navigation.location);
  return router;
}
