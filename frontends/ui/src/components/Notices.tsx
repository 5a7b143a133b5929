import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { cx } from '../cx';
import { CheckIcon, CloseIcon, InfoIcon, WarningIcon } from '../icons';
import {
  noticeEdges,
  noticeOffset,
  noticeSpaces,
  noticeSpaceVariable,
  resolveNotice,
  type Notice,
  type NoticeEdge,
  type NoticeInput,
  type NoticePlacement,
  type NoticeType,
  type ScreenBox,
} from '../notice-rules';

type Shorthand = (message: string, options?: Omit<NoticeInput, 'message' | 'type'>) => string;

export interface NoticeApi {
  /** Shows a notice and returns its id. */
  notify: (input: NoticeInput) => string;
  error: Shorthand;
  warning: Shorthand;
  success: Shorthand;
  info: Shorthand;
  dismiss: (id: string) => void;
  clear: () => void;
}

// A Module Federation singleton: remotes post into the shell's viewport through this one context.
const NoticeContext = createContext<NoticeApi | null>(null);

export function useNotice(): NoticeApi {
  const api = useContext(NoticeContext);
  if (api === null) throw new Error('useNotice must be used inside <NoticeProvider>');
  return api;
}

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: string) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setNotices((list) => list.filter((n) => n.id !== id));
  }, []);

  const notify = useCallback(
    (input: NoticeInput) => {
      const notice = resolveNotice(input);
      clearTimeout(timers.current.get(notice.id));
      setNotices((list) => [...list.filter((n) => n.id !== notice.id), notice]);
      if (notice.duration !== null)
        timers.current.set(
          notice.id,
          setTimeout(() => dismiss(notice.id), notice.duration),
        );
      return notice.id;
    },
    [dismiss],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    setNotices([]);
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  const api = useMemo<NoticeApi>(() => {
    const shorthand =
      (type: NoticeType): Shorthand =>
      (message, options) =>
        notify({ ...options, message, type });
    return { notify, error: shorthand('error'), warning: shorthand('warning'), success: shorthand('success'), info: shorthand('info'), dismiss, clear };
  }, [notify, dismiss, clear]);

  // Each region's height as drawn, and where it is drawn: on its own edge unless an open dropdown is in the way.
  const [heights, setHeights] = useState<Record<NoticePlacement, number>>({ top: 0, bottom: 0 });
  const measured = useCallback(
    (placement: NoticePlacement, height: number) => setHeights((h) => (h[placement] === height ? h : { ...h, [placement]: height })),
    [],
  );
  const screen = useOpenPanels(notices.length > 0);
  const edges = noticeEdges(heights, screen.panels, screen.viewport);
  useNoticeSpaces(heights, edges);

  return (
    <NoticeContext.Provider value={api}>
      {children}
      <NoticeRegion placement="top" edge={edges.top} offset={offsetOf('top', edges.top, heights)} notices={notices} onDismiss={dismiss} onMeasure={measured} />
      <NoticeRegion
        placement="bottom"
        edge={edges.bottom}
        offset={offsetOf('bottom', edges.bottom, heights)}
        notices={notices}
        onDismiss={dismiss}
        onMeasure={measured}
      />
    </NoticeContext.Provider>
  );
}

const offsetOf = (placement: NoticePlacement, edge: NoticeEdge, heights: Record<NoticePlacement, number>): number =>
  noticeOffset(placement, edge === 'hidden' ? placement : edge, heights);

// Every open headlessui panel drawn with `anchor` (Select, Combobox, MultiSelect, Menu, Popover; the ui kit's and the
// remotes' own) carries data-anchor.
const PANEL_SELECTOR = '[data-anchor]:not([data-closed])';

interface Screen {
  panels: ScreenBox[];
  viewport: { width: number; height: number };
}

const sameScreen = (a: Screen, b: Screen): boolean =>
  a.viewport.width === b.viewport.width &&
  a.viewport.height === b.viewport.height &&
  a.panels.length === b.panels.length &&
  a.panels.every((p, i) => {
    const q = b.panels[i]!;
    return p.x === q.x && p.y === q.y && p.width === q.width && p.height === q.height;
  });

/**
 * The boxes of the dropdown panels open on the screen, and the window's size, followed while `active` (while notices
 * are shown: with none, nothing is watched). A panel opens, moves (it follows its field on scroll) and closes through
 * DOM changes, which are read once a frame.
 */
function useOpenPanels(active: boolean): Screen {
  const [screen, setScreen] = useState<Screen>({ panels: [], viewport: { width: 0, height: 0 } });
  useEffect(() => {
    if (!active || typeof MutationObserver === 'undefined') return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const panels = [...document.querySelectorAll(PANEL_SELECTOR)]
        .map((element) => element.getBoundingClientRect())
        .filter((box) => box.width > 0 && box.height > 0)
        .map((box) => ({ x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) }));
      const next = { panels, viewport: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight } };
      setScreen((current) => (sameScreen(current, next) ? current : next));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'data-open', 'data-closed'] });
    window.addEventListener('resize', schedule);
    window.addEventListener('scroll', schedule, true);
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, true);
      setScreen((current) => (current.panels.length === 0 ? current : { ...current, panels: [] }));
    };
  }, [active]);
  return screen;
}

/** Keeps `--notice-space-top` / `--notice-space-bottom` equal to how far the notices reach from each edge, where they are drawn. */
function useNoticeSpaces(heights: Record<NoticePlacement, number>, edges: Record<NoticePlacement, NoticeEdge>) {
  const { top, bottom } = noticeSpaces(heights, edges);
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.style.setProperty(noticeSpaceVariable('top'), top);
    root.style.setProperty(noticeSpaceVariable('bottom'), bottom);
  }, [top, bottom]);
  useLayoutEffect(
    () => () => {
      for (const placement of ['top', 'bottom'] as const) document.documentElement.style.setProperty(noticeSpaceVariable(placement), '0px');
    },
    [],
  );
}

const tone: Record<NoticeType, string> = {
  error: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  info: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100',
  custom: 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
};

function NoticeIcon({ type }: { type: NoticeType }) {
  if (type === 'success') return <CheckIcon className="size-5 shrink-0" />;
  if (type === 'error' || type === 'warning') return <WarningIcon className="size-5 shrink-0" />;
  return <InfoIcon className="size-5 shrink-0" />;
}

/** Reports the region's height as its notices come, grow and go (0 with none). */
function useRegionHeight(placement: NoticePlacement, count: number, onMeasure: (placement: NoticePlacement, height: number) => void) {
  const region = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = region.current;
    if (element === null) return;
    const write = () => onMeasure(placement, count === 0 ? 0 : Math.ceil(element.getBoundingClientRect().height));
    write();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(write);
    observer?.observe(element);
    return () => observer?.disconnect();
  }, [placement, count, onMeasure]);
  return region;
}

function NoticeRegion({
  placement,
  edge,
  offset,
  notices,
  onDismiss,
  onMeasure,
}: {
  placement: NoticePlacement;
  /** Where it is drawn: its own edge, the other one while an open dropdown is in the way, or hidden. */
  edge: NoticeEdge;
  /** Pixels from the edge it is drawn on. */
  offset: number;
  notices: Notice[];
  onDismiss: (id: string) => void;
  onMeasure: (placement: NoticePlacement, height: number) => void;
}) {
  const shown = notices.filter((n) => n.placement === placement);
  const region = useRegionHeight(placement, shown.length, onMeasure);
  const drawnOn = edge === 'hidden' ? placement : edge;
  return (
    <div
      ref={region}
      data-notice-region={placement}
      data-notice-edge={edge}
      style={drawnOn === 'top' ? { top: offset } : { bottom: offset }}
      className={cx('pointer-events-none fixed inset-x-0 z-[60] flex flex-col items-center gap-2 px-4', edge === 'hidden' && 'invisible')}
    >
      {shown.map((notice) => (
        <div
          key={notice.id}
          role={notice.type === 'error' || notice.type === 'warning' ? 'alert' : 'status'}
          data-notice-type={notice.type}
          className={cx('pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border p-3 text-sm shadow-lg', tone[notice.type])}
        >
          <NoticeIcon type={notice.type} />
          <div className="min-w-0 flex-1">
            {notice.title && <p className="font-semibold">{notice.title}</p>}
            <p>{notice.message}</p>
            {(notice.action || notice.actions.length > 0) && (
              <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
                {[...(notice.action ? [notice.action] : []), ...notice.actions].map((action) => (
                  <button
                    key={action.label}
                    type="button"
                    className="font-semibold underline underline-offset-2"
                    onClick={() => {
                      action.onClick();
                      onDismiss(notice.id);
                    }}
                  >
                    {action.label}
                  </button>
                ))}
              </div>
            )}
          </div>
          <button type="button" aria-label="Dismiss notification" className="rounded p-0.5 opacity-70 hover:opacity-100" onClick={() => onDismiss(notice.id)}>
            <CloseIcon className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * A callback that shows a failed call as a notice. `describe` turns the error into what to show (spec §8
 * extraction), or null when it was shown already (the session handling's 'Session expired').
 */
export function useErrorNotice(describe: (error: unknown) => { message: string } | null): (error: unknown) => void {
  const notice = useNotice();
  return useCallback(
    (error: unknown) => {
      const shown = describe(error);
      if (shown) notice.notify(shown);
    },
    [notice, describe],
  );
}
