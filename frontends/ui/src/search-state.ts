import { useCallback, useLayoutEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router';

/**
 * The query string a screen writes its state to, as it will be once the screen's own pending writes land.
 *
 * React Router applies a navigation in a transition: until it commits, a render (e.g. of a keystroke) still shows
 * the previous URL, and `setSearchParams`' functional form is handed the params of the render that created it, not
 * the latest ones. A change computed from either can bring back what an earlier change removed (a filter cleared
 * and then typed after comes back). So a screen keeps the query string it last wrote (`latest`) and the writes the
 * router has not shown yet (`pending`); a URL the router shows that is none of them came from elsewhere (back,
 * forward, a link) and becomes the base.
 */
export interface SearchTracker {
  latest: string;
  pending: readonly string[];
}

export const trackSearch = (search: string): SearchTracker => ({ latest: search, pending: [] });

/** The screen wrote `search` (not shown yet). */
export function searchWritten(t: SearchTracker, search: string): SearchTracker {
  return { latest: search, pending: [...t.pending, search] };
}

/** The router shows `search`: one of the screen's writes landing (later ones may still be on their way), or a URL from elsewhere. */
export function searchShown(t: SearchTracker, search: string): SearchTracker {
  const index = t.pending.indexOf(search);
  if (index === -1) return t.pending.length === 0 && t.latest === search ? t : trackSearch(search);
  const rest = t.pending.slice(index + 1);
  return rest.length === 0 ? trackSearch(search) : { latest: t.latest, pending: rest };
}

const normal = (params: URLSearchParams): string => params.toString();

export interface SearchWriteOptions {
  /** Replace the current history entry (settled typing, a correction) instead of adding one. */
  replace?: boolean;
}

/**
 * The screen's query parameters and a writer whose updates are always based on the latest ones: the URL as the
 * screen last wrote it, or as the router shows it when it changed otherwise. A write that changes nothing is dropped.
 */
export function useSearchWriter(): [URLSearchParams, (update: (latest: URLSearchParams) => URLSearchParams, options?: SearchWriteOptions) => void] {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const tracker = useRef<SearchTracker>(trackSearch(normal(params)));
  // Only committed renders move the tracker (a render of a keystroke during a pending navigation shows the old URL).
  useLayoutEffect(() => {
    tracker.current = searchShown(tracker.current, normal(new URLSearchParams(location.search)));
  }, [location.key, location.search]);
  const write = useCallback(
    (update: (latest: URLSearchParams) => URLSearchParams, options: SearchWriteOptions = {}) => {
      const next = normal(update(new URLSearchParams(tracker.current.latest)));
      if (next === tracker.current.latest) return;
      tracker.current = searchWritten(tracker.current, next);
      const replace = options.replace ?? false;
      setParams(new URLSearchParams(next), { replace, flushSync: !replace });
    },
    [setParams],
  );
  return [params, write];
}
