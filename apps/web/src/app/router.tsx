import { createBrowserRouter } from 'react-router';
import { routes } from './routes.tsx';

/** The app's data router (library mode). */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
