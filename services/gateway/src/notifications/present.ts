import type { Notification } from '@ledgerline/proto/notifications/v1/notifications_pb';

/** A notification as the REST answer (`Notification`). */
export const notificationJson = (n: Notification | undefined) => ({
  id: n?.id ?? '',
  type: n?.type ?? '',
  message: n?.message ?? '',
  redirectUrl: n?.redirectUrl ?? '',
  isRead: n?.isRead ?? false,
  status: n?.status ?? 'unread',
  created: n?.created ?? '',
  data: {
    comment: n?.data?.comment ?? '',
    userName: n?.data?.userName ?? '',
    requesteeUserName: n?.data?.requesteeUserName ?? '',
    requesterUserName: n?.data?.requesterUserName ?? '',
    transactionId: n?.data?.transactionId ?? '',
    accountId: n?.data?.accountId ?? '',
  },
});

/** The list's paging, as every list of the gateway answers it (`PageMeta`). */
export const pageMeta = (page: number, take: number, itemCount: number) => {
  const pageCount = Math.ceil(itemCount / take);
  return { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount };
};
