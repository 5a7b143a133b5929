import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  NotificationsRecordSchema,
  NotificationsService as NotificationsRpc,
  CreateRecordResponseSchema,
} from '@ledgerline/proto/notifications/v1/notifications_pb';
import type { NotificationsUseCases } from '../usecases/index.js';

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function notificationsRoutes(useCases: NotificationsUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      NotificationsRpc,
      withInputRules(NotificationsRpc, {
        async createRecord(req, ctx) {
          const record = await useCases.createRecord(requireTenant(ctx), { title: req.title });
          return create(CreateRecordResponseSchema, {
            record: create(NotificationsRecordSchema, { id: record.id, title: record.title, createdAt: record.createdAt.toISOString() }),
          });
        },
      }),
    );
  };
}
