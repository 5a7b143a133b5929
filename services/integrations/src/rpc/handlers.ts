import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  IntegrationsRecordSchema,
  IntegrationsService as IntegrationsRpc,
  CreateRecordResponseSchema,
} from '@ledgerline/proto/integrations/v1/integrations_pb';
import type { IntegrationsUseCases } from '../usecases/index.js';

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function integrationsRoutes(useCases: IntegrationsUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      IntegrationsRpc,
      withInputRules(IntegrationsRpc, {
        async createRecord(req, ctx) {
          const record = await useCases.createRecord(requireTenant(ctx), { title: req.title });
          return create(CreateRecordResponseSchema, {
            record: create(IntegrationsRecordSchema, { id: record.id, title: record.title, createdAt: record.createdAt.toISOString() }),
          });
        },
      }),
    );
  };
}
