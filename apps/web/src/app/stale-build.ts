import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const pollIntervalMs = 5 * 60 * 1000;

/**
 * True when /version.json names a build other than `currentBuildId`. Unreachable or malformed
 * answers count as "not stale" (offline, server restarting): the next poll tries again.
 */
export async function isNewBuildDeployed(currentBuildId: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  if (currentBuildId === 'dev') return false;
  try {
    const response = await fetchImpl(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
    if (!response.ok) return false;
    const { buildId } = (await response.json()) as { buildId?: unknown };
    return typeof buildId === 'string' && buildId !== currentBuildId;
  } catch {
    return false;
  }
}

let isStale = false;

async function checkBuild(): Promise<void> {
  if (isStale) return;
  if (await isNewBuildDeployed(__BUILD_ID__)) isStale = true;
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
