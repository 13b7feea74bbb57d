/**
 * `load` run once and its answer shared by every call; a load that fails or finds nothing (null)
 * is run again on the next call (e.g. after `rarelens kb build`).
 */
export function loadOnce<T>(load: () => Promise<T | null>): () => Promise<T | null> {
  let loaded: Promise<T | null> | null = null;
  return () => {
    if (loaded) return loaded;
    const current = load();
    loaded = current;
    current.then(
      (value) => {
        if (value === null && loaded === current) loaded = null;
      },
      () => {
        if (loaded === current) loaded = null;
      },
    );
    return current;
  };
}
