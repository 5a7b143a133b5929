import type { NotificationsRecord } from '@ledgerline/proto/notifications/v1/notifications_pb';

/** A record as the REST answer (`NotificationsRecord`). */
export const recordJson = (record: NotificationsRecord | undefined) => ({
  id: record?.id ?? '',
  title: record?.title ?? '',
  createdAt: record?.createdAt ?? '',
});
