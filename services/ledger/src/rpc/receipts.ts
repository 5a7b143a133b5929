import { create } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import { ReceiptSchema, type LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { ReceiptRow } from '../store/receipts-store.js';
import type { ReceiptUseCases } from '../usecases/receipts.js';

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

export const receiptMessage = (r: ReceiptRow) =>
  create(ReceiptSchema, {
    id: r.id,
    transactionId: r.transaction_id,
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: BigInt(r.size_bytes),
    uploadedBy: r.uploaded_by ?? '',
    uploadedByName: r.uploaded_by_name ?? '',
    createdAt: new Date(r.created_at).toISOString(),
  });

/** The drawer's receipt RPCs (thin edge: map the message, call one use case, map the answer). */
export function receiptHandlers(u: ReceiptUseCases): Pick<ServiceImpl<typeof LedgerService>, 'recordReceiptsAttached' | 'listReceipts' | 'getReceiptFile'> {
  return {
    async recordReceiptsAttached(req, ctx) {
      const recorded = await u.recordAttached(
        tenantOf(ctx),
        req.transactionId,
        req.receipts.map((r) => ({ id: r.id, fileName: r.fileName, contentType: r.contentType, sizeBytes: Number(r.sizeBytes) })),
        req.actor,
      );
      return { recorded };
    },
    async listReceipts(req, ctx) {
      return { receipts: (await u.list(tenantOf(ctx), req.transactionId)).map(receiptMessage) };
    },
    async getReceiptFile(req, ctx) {
      const r = await u.file(tenantOf(ctx), req.id);
      return { receipt: receiptMessage(r), content: new Uint8Array(r.content) };
    },
  };
}
