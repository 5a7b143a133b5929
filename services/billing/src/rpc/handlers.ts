import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { BillingRecordSchema, BillingService as BillingRpc, CreateRecordResponseSchema } from '@ledgerline/proto/billing/v1/billing_pb';
import type { BillingUseCases } from '../usecases/index.js';

/** The Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function billingRoutes(useCases: BillingUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      BillingRpc,
      withInputRules(BillingRpc, {
        async createRecord(req, ctx) {
          const record = await useCases.createRecord(requireTenant(ctx), { title: req.title });
          return create(CreateRecordResponseSchema, {
            record: create(BillingRecordSchema, { id: record.id, title: record.title, createdAt: record.createdAt.toISOString() }),
          });
        },
      }),
    );
  };
}
