import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const pollIntervalMs = 5 * 60 * 1000;

let isStale = false;

async function checkBuild(): Promise<void> {
  if (__BUILD_ID__ === 'dev' || isStale) return;
  try {
    const response = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
    if (!response.ok) return;
    const { buildId } = (await response.json()) as { buildId?: unknown };
    if (typeof buildId === 'string' && buildId !== __BUILD_ID__) isStale = true;
  } catch {
    // Offline or the server restarting: try again on the next poll.
  }
}

/**
 * Polls /version.json; once a different build is deployed, the next in-app navigation becomes
 * a full page load so the user gets the new code (§4 stale build).
 */
export function useStaleBuildReload(): void {
  const location = useLocation();
  const isFirst = useRef(true);

  useEffect(() => {
    const timer = window.setInterval(() => void checkBuild(), pollIntervalMs);
    const handleVisible = () => {
      if (document.visibilityState === 'visible') void checkBuild();
    };
    document.addEventListener('visibilitychange', handleVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', handleVisible);
    };
  }, []);

  useEffect(() => {
    if (isFirst.current) {
      isFirst.current = false;
      return;
    }
    if (isStale) window.location.reload();
  }, [location.pathname]);
}
