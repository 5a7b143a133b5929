// In-app notifications (spec platform-core §3 "Notification", §7 "Notifications"; decision 0040): the payload names of
// the generated OpenAPI shapes and the hooks of the shell's bell — the list with its counts, mark read (one, all) and the
// live stream that tells the bell to read them again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { Schemas } from './types';

export type Notification = Schemas['Notification'];
export type NotificationList = Schemas['NotificationList'];
export type NotificationPreferences = Schemas['NotificationPreferences'];

/** Notifications the bell's panel lists (the newest; the count covers them all). */
export const BELL_TAKE = 20;

export const notificationsQueryKeys = {
  all: ['notifications'] as const,
  list: (workspaceId: string | null) => ['notifications', workspaceId, 'list'] as const,
};

/** GET /internal-notifications: the newest of the user's notifications in the workspace, with unreadCount and readCount. */
export function useNotifications(workspaceId: string | null) {
  const { client } = useApiContext();
  return useQuery<NotificationList, ApiError>({
    queryKey: notificationsQueryKeys.list(workspaceId),
    queryFn: ({ signal }) => client.get('/internal-notifications', { params: { query: { take: BELL_TAKE } }, signal }),
    enabled: workspaceId !== null,
  });
}

/** PATCH /internal-notifications/mark-read/{id}; the list and counts are read again. */
export function useMarkNotificationRead() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<Notification, ApiError, string>({
    mutationFn: (id) => client.patch('/internal-notifications/mark-read/{id}', { params: { path: { id } } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKeys.all }),
  });
}

/** PATCH /internal-notifications/mark-read without ids: every unread notification of the user in the workspace. */
export function useMarkAllNotificationsRead() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<Schemas['NotificationsMarkedRead'], ApiError, void>({
    mutationFn: () => client.patch('/internal-notifications/mark-read', { body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQueryKeys.all }),
  });
}

/** Waits before opening the stream again after it dropped: 1 s doubling to 30 s, back to 1 s once it is live. */
export function reconnectDelayMs(failures: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Keeps GET /internal-notifications/stream open while the user is signed in to a workspace: each `notification` event
 * (and `ready`, which follows every reconnect, so nothing missed while offline stays unseen) reads the list again.
 * A dropped stream is opened again with back-off; a refused one (401, a workspace gone) is left to the client's
 * handling and not retried.
 */
export function useNotificationStream(workspaceId: string | null): void {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (workspaceId === null) return;
    const controller = new AbortController();
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKeys.list(workspaceId) });
    const open = () => {
      client
        .eventStream(
          '/internal-notifications/stream',
          (event) => {
            if (event.event === 'ready') failures = 0;
            if (event.event === 'ready' || event.event === 'notification') refresh();
          },
          controller.signal,
        )
        .then(
          () => retry(),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            const status = (error as ApiError | undefined)?.statusCode;
            if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) return;
            retry();
          },
        );
    };
    const retry = () => {
      if (controller.signal.aborted) return;
      failures++;
      timer = setTimeout(open, reconnectDelayMs(failures));
    };
    open();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, queryClient, workspaceId]);
}
