import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  GetPreferencesResponseSchema,
  ListNotificationsResponseSchema,
  MarkManyReadResponseSchema,
  MarkReadResponseSchema,
  NotificationDataSchema,
  NotificationSchema,
  NotificationsService as NotificationsRpc,
  PreferencesSchema,
  UpdatePreferencesResponseSchema,
} from '@ledgerline/proto/notifications/v1/notifications_pb';
import type { NotificationView } from '../domain/notifications.js';
import type { NotificationsUseCases } from '../usecases/index.js';

const notificationMessage = (n: NotificationView) =>
  create(NotificationSchema, {
    id: n.id,
    type: n.type,
    message: n.message,
    redirectUrl: n.redirectUrl,
    isRead: n.isRead,
    created: n.created.toISOString(),
    status: n.isRead ? 'read' : 'unread',
    data: create(NotificationDataSchema, {
      comment: n.data.comment ?? '',
      userName: n.data.userName ?? '',
      requesteeUserName: n.data.requesteeUserName ?? '',
      requesterUserName: n.data.requesterUserName ?? '',
      transactionId: n.data.transactionId ?? '',
      accountId: n.data.accountId ?? '',
    }),
  });

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function notificationsRoutes(useCases: NotificationsUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      NotificationsRpc,
      withInputRules(NotificationsRpc, {
        async listNotifications(req, ctx) {
          const r = await useCases.list(requireTenant(ctx), { isRead: req.isRead, page: req.page, take: req.take });
          return create(ListNotificationsResponseSchema, {
            notifications: r.notifications.map(notificationMessage),
            total: r.total,
            unreadCount: r.unreadCount,
            readCount: r.readCount,
            page: r.page,
            take: r.take,
          });
        },
        async markRead(req, ctx) {
          return create(MarkReadResponseSchema, { notification: notificationMessage(await useCases.markRead(requireTenant(ctx), req.id)) });
        },
        async markManyRead(req, ctx) {
          const r = await useCases.markManyRead(requireTenant(ctx), req.notificationIds.length > 0 ? req.notificationIds : undefined);
          return create(MarkManyReadResponseSchema, r);
        },
        async getPreferences(_req, ctx) {
          return create(GetPreferencesResponseSchema, { preferences: create(PreferencesSchema, await useCases.preferences(requireTenant(ctx))) });
        },
        async updatePreferences(req, ctx) {
          const p = await useCases.updatePreferences(requireTenant(ctx), {
            emailCommentTagged: req.emailCommentTagged,
            emailReconnectRequired: req.emailReconnectRequired,
          });
          return create(UpdatePreferencesResponseSchema, { preferences: create(PreferencesSchema, p) });
        },
      }),
    );
  };
}
