import { Constants } from '@rarelens/contract';

const keyPrefix = 'rarelens:chunk-reload:';

/**
 * Reloads the page after a failed lazy chunk (usually: a new build replaced the old files),
 * at most once per 10 s for the same path (§4) so a broken deployment cannot loop.
 * Returns true when a reload was started.
 */
export function reloadOnceForPath(path: string, now: number = Date.now(), storage: Storage = sessionStorage): boolean {
  const key = keyPrefix + path;
  const last = Number(storage.getItem(key) ?? 0);
  if (last && now - last < Constants.reloadGuardTtlMs) return false;
  storage.setItem(key, String(now));
  window.location.reload();
  return true;
}

function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    error.message,
  );
}

/** Wraps a lazy import: on a chunk load failure the page reloads (guarded) instead of failing. */
export function withChunkReload<T>(importer: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await importer();
    } catch (error) {
      if (isChunkLoadError(error) && reloadOnceForPath(window.location.pathname)) {
        // The page is going away; keep the router waiting rather than flashing an error.
        return new Promise<T>(() => undefined);
      }
      throw error;
    }
  };
}

/** Vite reports failed preloads through this event; route them through the same guard. */
export function installPreloadErrorHandler(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnceForPath(window.location.pathname)) event.preventDefault();
  });
}
