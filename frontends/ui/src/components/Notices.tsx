import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cx } from '../cx';
import { CheckIcon, CloseIcon, InfoIcon, WarningIcon } from '../icons';
import { noticeSpace, noticeSpaceVariable, resolveNotice, type Notice, type NoticeInput, type NoticePlacement, type NoticeType } from '../notice-rules';

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

  return (
    <NoticeContext.Provider value={api}>
      {children}
      <NoticeRegion placement="top" notices={notices} onDismiss={dismiss} />
      <NoticeRegion placement="bottom" notices={notices} onDismiss={dismiss} />
    </NoticeContext.Provider>
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

/** Keeps the region's CSS variable equal to the space its notices take, as they come, grow and go. */
function useNoticeSpace(placement: NoticePlacement, region: RefObject<HTMLDivElement | null>, count: number) {
  useLayoutEffect(() => {
    const element = region.current;
    const root = document.documentElement;
    const name = noticeSpaceVariable(placement);
    if (element === null) return;
    const write = () => root.style.setProperty(name, noticeSpace(count === 0 ? 0 : element.getBoundingClientRect().height));
    write();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(write);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.setProperty(name, '0px');
    };
  }, [placement, region, count]);
}

function NoticeRegion({ placement, notices, onDismiss }: { placement: NoticePlacement; notices: Notice[]; onDismiss: (id: string) => void }) {
  const shown = notices.filter((n) => n.placement === placement);
  const region = useRef<HTMLDivElement>(null);
  useNoticeSpace(placement, region, shown.length);
  return (
    <div
      ref={region}
      data-notice-region={placement}
      className={cx('pointer-events-none fixed inset-x-0 z-[60] flex flex-col items-center gap-2 px-4', placement === 'top' ? 'top-4' : 'bottom-4')}
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
