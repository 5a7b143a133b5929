import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { preloadWidgets } from './Deferred';

/**
 * A skeleton of the page while its code loads (issue #13: code split per route): the shape of a page header and a
 * card, announced as loading, never a blank screen.
 */
export function PageSkeleton({ label, full = false }: { label: string; full?: boolean }) {
  return (
    <div role="status" aria-label={label} data-skeleton="" className={full ? 'min-h-screen bg-slate-50 p-6 dark:bg-slate-950' : undefined}>
      <div className="animate-pulse motion-reduce:animate-none" aria-hidden>
        <div className="h-7 w-56 max-w-full rounded bg-slate-200 dark:bg-slate-800" />
        <div className="mt-3 h-4 w-96 max-w-full rounded bg-slate-200 dark:bg-slate-800" />
        <div className="mt-8 h-64 rounded-xl bg-slate-200/70 dark:bg-slate-800/70" />
      </div>
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** A lazily loaded page; `preload()` starts fetching its code before it renders (no waterfall behind a layout). */
export type LazyPageComponent<P extends object> = ComponentType<P> & { preload: () => void };

/**
 * A page or a screen loaded on demand in its own chunk, with a skeleton until it arrives (the shell's routes: `/login`,
 * the first load, does not carry the app's pages; the remotes' tabs and drawers).
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  label: string,
  options: {
    full?: boolean;
    fallback?: ReactNode;
    /** false: a page that shows none of the kit's Headless UI components (components/Deferred.tsx) does not fetch them. */ widgets?: boolean;
  } = {},
): LazyPageComponent<P> {
  // With the kit's Headless UI components unless told otherwise, so nothing on the page waits for them after it shows.
  const loadWithWidgets = options.widgets === false ? load : () => Promise.all([load(), preloadWidgets()]).then(([page]) => page);
  const Page = lazy(async () => ({ default: await loadWithWidgets() }));
  function LazyPage(props: P) {
    return (
      <Suspense fallback={options.fallback === undefined ? <PageSkeleton label={label} full={options.full} /> : options.fallback}>
        <Page {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `Lazy(${label})`;
  // The browser keeps one copy of a module: fetching it early (a page that will surely be needed) costs no second request.
  LazyPage.preload = () => void loadWithWidgets().catch(() => undefined);
  return LazyPage;
}
