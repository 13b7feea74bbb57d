import { Constants } from '@rarelens/contract';

const keyPrefix = 'rarelens:chunk-reload:';

type PendingLocation = { pathname: string; search: string; hash: string };
let pendingLocation: () => PendingLocation | undefined = () => undefined;

/**
 * Tells the guard where a navigation in progress is going. During an in-app navigation the
 * address bar still shows the page being left while the next page's chunk loads; a reload must
 * open the page the user asked for, and the 10 s guard must count for that path.
 */
export function trackPendingNavigation(get: () => PendingLocation | undefined): void {
  pendingLocation = get;
}

/**
 * Reloads the page after a failed lazy chunk (usually: a new build replaced the old files),
 * at most once per 10 s for the same path (§4) so a broken deployment cannot loop. With a
 * `target` other than the current address (an in-app navigation), that page is loaded instead.
 * Returns true when a reload was started.
 */
export function reloadOnceForPath(path: string, now: number = Date.now(), storage: Storage = sessionStorage, target?: string): boolean {
  const key = keyPrefix + path;
  const last = Number(storage.getItem(key) ?? 0);
  if (last && now - last < Constants.reloadGuardTtlMs) return false;
  storage.setItem(key, String(now));
  const current = window.location.pathname + window.location.search + window.location.hash;
  if (target !== undefined && target !== current) window.location.assign(target);
  else window.location.reload();
  return true;
}

/** Reloads (guarded) into the page being opened, or the current one outside a navigation. */
function reloadForFailedChunk(): boolean {
  const next = pendingLocation();
  if (!next) return reloadOnceForPath(window.location.pathname);
  return reloadOnceForPath(next.pathname, Date.now(), sessionStorage, next.pathname + next.search + next.hash);
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
      if (isChunkLoadError(error) && reloadForFailedChunk()) {
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
    if (reloadForFailedChunk()) event.preventDefault();
  });
}
