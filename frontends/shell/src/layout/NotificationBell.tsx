import { CloseButton, Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import {
  describeError,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotificationStream,
  useNotifications,
  type Notification,
} from '@ledgerline/api';
import { BellIcon, cx, useErrorNotice } from '@ledgerline/ui';
import { useNavigate } from 'react-router';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "5 minutes ago", "yesterday", "3 weeks ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 4.35],
    ['month', 12],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), 'year');
}

const badgeText = (n: number) => (n > 99 ? '99+' : String(n));

/**
 * The bell in the top bar (decision 0040): the unread count, kept live by the notification stream; a panel with the
 * newest notifications — choosing one marks it read and opens where it leads (e.g. the transaction's drawer) — and
 * "Mark all read".
 */
export function NotificationBell({ workspaceId }: { workspaceId: string | null }) {
  const list = useNotifications(workspaceId);
  // The stream opens once the list has answered: a session that ended behind the app's back is found by the list (a
  // request like every other, whose 401 logs out once with its warning), not by a held stream racing the sign-out.
  useNotificationStream(list.isSuccess ? workspaceId : null);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const showError = useErrorNotice(describeError);
  const navigate = useNavigate();
  if (workspaceId === null) return null;
  const unread = list.data?.unreadCount ?? 0;
  const items = list.data?.data ?? [];

  const open = (n: Notification, close: () => void) => {
    close();
    if (!n.isRead) markRead.mutate(n.id, { onError: showError });
    void navigate(n.redirectUrl);
  };

  return (
    <Popover className="relative">
      <PopoverButton
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        className="relative rounded-lg p-2 text-slate-600 hover:bg-slate-100 focus:outline-none data-focus:ring-2 data-focus:ring-brand-500/40 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        <BellIcon className="size-5" />
        {unread > 0 && (
          <span
            data-testid="notification-count"
            className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[0.6875rem] leading-none font-semibold text-white"
          >
            {badgeText(unread)}
          </span>
        )}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom end', gap: 6, padding: 8 }}
        aria-label="Notifications"
        data-testid="notifications-panel"
        className="z-50 flex max-h-[min(32rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col overflow-hidden rounded-lg border border-slate-200 bg-white text-sm shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
      >
        {({ close }) => (
          <>
            <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 dark:border-slate-800">
              <h2 className="font-semibold text-slate-900 dark:text-slate-100">Notifications</h2>
              <button
                type="button"
                disabled={unread === 0 || markAll.isPending}
                onClick={() => markAll.mutate(undefined, { onError: showError })}
                className="rounded-md px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-default disabled:text-slate-400 disabled:hover:bg-transparent dark:text-brand-300 dark:hover:bg-brand-950 dark:disabled:text-slate-600"
              >
                Mark all read
              </button>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto">
              {list.isPending && <p className="px-4 py-6 text-center text-slate-500 dark:text-slate-400">Loading notifications…</p>}
              {list.error && (
                <p className="px-4 py-6 text-center text-red-700 dark:text-red-400">
                  {describeError(list.error)?.message ?? 'The notifications could not be loaded'}
                </p>
              )}
              {list.isSuccess && items.length === 0 && (
                <p className="px-4 py-6 text-center text-slate-500 dark:text-slate-400">You’re all caught up: no notifications yet.</p>
              )}
              {items.length > 0 && (
                <ul className="divide-y divide-slate-100 dark:divide-slate-800">
                  {items.map((n) => (
                    <li key={n.id}>
                      <CloseButton
                        as="button"
                        type="button"
                        onClick={() => open(n, close)}
                        className={cx(
                          'flex w-full gap-3 px-4 py-3 text-left hover:bg-slate-50 focus:outline-none focus-visible:bg-slate-100 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800',
                          !n.isRead && 'bg-brand-50/60 dark:bg-brand-950/40',
                        )}
                      >
                        <span
                          aria-hidden
                          className={cx('mt-1.5 size-2 shrink-0 rounded-full', n.isRead ? 'bg-transparent' : 'bg-brand-600 dark:bg-brand-400')}
                        />
                        <span className="min-w-0 flex-1">
                          <span
                            className={cx(
                              'block break-words',
                              n.isRead ? 'text-slate-600 dark:text-slate-400' : 'font-medium text-slate-900 dark:text-slate-100',
                            )}
                          >
                            {n.message}
                          </span>
                          <span className="mt-0.5 block text-xs text-slate-500 dark:text-slate-400">
                            <time dateTime={n.created}>{timeAgo(n.created)}</time>
                            {!n.isRead && <span className="sr-only"> · unread</span>}
                          </span>
                        </span>
                      </CloseButton>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
