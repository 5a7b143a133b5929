import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { PartiesRecordSchema, PartiesService as PartiesRpc, CreateRecordResponseSchema } from '@ledgerline/proto/parties/v1/parties_pb';
import type { PartiesUseCases } from '../usecases/index.js';

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function partiesRoutes(useCases: PartiesUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(PartiesRpc, withInputRules(PartiesRpc, {
      async createRecord(req, ctx) {
        const record = await useCases.createRecord(requireTenant(ctx), { title: req.title });
        return create(CreateRecordResponseSchema, { record: create(PartiesRecordSchema, { id: record.id, title: record.title, createdAt: record.createdAt.toISOString() }) });
      },
    }));
  };
}
