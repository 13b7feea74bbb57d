import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Updates the URL's search parameters from the latest value, including updates still in
 * flight. react-router hands a functional update the parameters of the last render, so two
 * quick updates (a mode switch, then Apply filters before the re-render) would otherwise
 * lose the first one.
 */
export function useSearchParamsUpdate(): [
  URLSearchParams,
  (update: (prev: URLSearchParams) => URLSearchParams) => void,
] {
  const [params, setParams] = useSearchParams();
  const pending = useRef<URLSearchParams | null>(null);

  useEffect(() => {
    if (pending.current !== null && pending.current.toString() === params.toString())
      pending.current = null;
  }, [params]);

  const update = useCallback(
    (fn: (prev: URLSearchParams) => URLSearchParams) => {
      const next = fn(new URLSearchParams(pending.current ?? params));
      pending.current = next;
      setParams(next);
    },
    [params, setParams],
  );
  return [params, update];
}

/** A 1-based page number kept in the search parameter `name` (at least 1), and its setter. */
export function usePageParam(name = 'page'): [number, (page: number) => void] {
  const [params, update] = useSearchParamsUpdate();
  const page = Math.max(1, Number(params.get(name) ?? '1') || 1);
  const setPage = useCallback(
    (next: number) =>
      update((prev) => {
        const p = new URLSearchParams(prev);
        p.set(name, String(next));
        return p;
      }),
    [name, update],
  );
  return [page, setPage];
}
