import { useEffect, useRef } from 'react';
import { SCROLL_THROTTLE_MS, shouldFetchNextPage, throttle } from './rules';

/**
 * Spec §9 infinite scroll on the page's own scroll (the shell's layout scrolls the window): on scroll and resize,
 * throttled at 200 ms, and after every page that arrives, `loadMore` runs when the rest of the page is within
 * 2.2 viewports. `ready` is false while a page is loading or none is left.
 */
export function useInfiniteScroll(ready: boolean, loadMore: () => void, pagesLoaded: number): void {
  const state = useRef({ ready, loadMore });
  state.current = { ready, loadMore };

  useEffect(() => {
    const check = () => {
      if (!state.current.ready) return;
      const root = document.documentElement;
      if (shouldFetchNextPage({ scrollHeight: root.scrollHeight, scrollTop: window.scrollY, viewportHeight: window.innerHeight })) state.current.loadMore();
    };
    const throttled = throttle(check, SCROLL_THROTTLE_MS);
    window.addEventListener('scroll', throttled, { passive: true });
    window.addEventListener('resize', throttled);
    return () => {
      throttled.cancel();
      window.removeEventListener('scroll', throttled);
      window.removeEventListener('resize', throttled);
    };
  }, []);

  // A page that does not fill 2.2 viewports asks for the next one without waiting for a scroll.
  useEffect(() => {
    if (!ready) return;
    const frame = requestAnimationFrame(() => {
      const root = document.documentElement;
      if (shouldFetchNextPage({ scrollHeight: root.scrollHeight, scrollTop: window.scrollY, viewportHeight: window.innerHeight })) state.current.loadMore();
    });
    return () => cancelAnimationFrame(frame);
  }, [ready, pagesLoaded]);
}
