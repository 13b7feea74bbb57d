import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { LoadingBar } from '../components/loading-bar.tsx';
import { SessionExpiredDialog } from '../features/auth/session-expired-dialog.tsx';
import { useStaleBuildReload } from './stale-build.ts';

/** The top loading bar follows navigations (lazy pages) and every query or mutation in flight. */
function AppLoadingBar() {
  const navigation = useNavigation();
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  return <LoadingBar isActive={navigation.state !== 'idle' || fetching > 0 || mutating > 0} />;
}

/** Root route: global UI that needs the router (loading bar, session-expired dialog, stale build). */
export function AppRoot() {
  useStaleBuildReload();
  return (
    <>
      <AppLoadingBar />
      <Outlet />
      <SessionExpiredDialog />
      <ScrollRestoration />
    </>
  );
}
