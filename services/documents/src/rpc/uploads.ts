import { create, type MessageInitShape } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { PageMetaSchema } from '@ledgerline/proto/documents/v1/documents_pb';
import { UploadSchema, UploadsService, type TransactionSummarySchema, type Upload } from '@ledgerline/proto/documents/v1/uploads_pb';
import type { TransactionSummaryJson } from '../store/uploads.js';
import type { UploadUseCases, UploadView } from '../usecases/uploads.js';

const summary = (t: TransactionSummaryJson | null): MessageInitShape<typeof TransactionSummarySchema> | undefined =>
  t
    ? {
        id: t.id,
        date: t.date,
        amountCents: BigInt(t.amountCents),
        merchantName: t.merchantName,
        memo: t.memo,
        accountId: t.accountId,
        isoCurrencyCode: t.isoCurrencyCode,
      }
    : undefined;

export function uploadMessage(v: UploadView): Upload {
  const r = v.row;
  return create(UploadSchema, {
    id: r.id,
    url: `/workspace-uploads/${r.id}`,
    signedUrl: v.signedUrl,
    signedUrlExpiresAt: v.signedUrlExpiresAt,
    uploadType: r.upload_type,
    dateTime: r.receipt_date ?? '',
    merchantName: r.merchant_name ?? '',
    amountCents: r.amount_cents === null ? undefined : BigInt(r.amount_cents),
    workspaceId: r.workspace_id,
    matchedOn: r.matched_on?.toISOString() ?? '',
    matchedTransaction: summary(r.matched_transaction),
    receiptStatus: v.receiptStatus,
    matchedBy: r.matched_by ?? '',
    matchConfidence: r.match_confidence === null ? 0 : Number(r.match_confidence),
    suggestions: r.suggestions.map((s) => ({ transaction: summary(s.transaction), confidence: s.confidence, reasons: s.reasons })),
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: BigInt(r.size_bytes),
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by ?? '',
    readStatus: r.read_status,
  });
}

/** The uploads' Connect handlers: the caller's tenancy, one use case, the answer. */
export function uploadsRoutes(u: UploadUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      UploadsService,
      withInputRules(UploadsService, {
        async createUploads(req, ctx) {
          const r = await u.create(requireTenant(ctx), {
            uploadType: req.uploadType,
            files: req.files.map((f) => ({ fileName: f.fileName, content: f.content })),
            transactionId: req.transactionId,
            idempotencyKey: req.idempotencyKey,
          });
          return { uploadedFiles: r.uploadedFiles.map(uploadMessage), failedFiles: r.failedFiles, message: r.message };
        },
        async listUploads(req, ctx) {
          const r = await u.list(requireTenant(ctx), {
            uploadTypes: req.uploadTypes,
            receiptStatuses: req.receiptStatuses,
            startDate: req.startDate,
            endDate: req.endDate,
            transactionId: req.transactionId,
            page: req.page,
            take: req.take,
          });
          return { data: r.data.map(uploadMessage), meta: create(PageMetaSchema, r.meta) };
        },
        async getUpload(req, ctx) {
          return { upload: uploadMessage(await u.get(requireTenant(ctx), req.id)) };
        },
        async updateUpload(req, ctx) {
          const r = await u.update(requireTenant(ctx), req.id, {
            merchantName: req.merchantName,
            dateTime: req.dateTime,
            amountCents: req.amountCents === undefined ? undefined : Number(req.amountCents),
          });
          return { upload: uploadMessage(r.upload), message: r.message };
        },
        async getUploadFile(req, ctx) {
          const r = await u.file(requireTenant(ctx), req.id);
          return { upload: uploadMessage(r.view), content: r.content };
        },
        async matchUpload(req, ctx) {
          const r = await u.match(requireTenant(ctx), req.id, req.transactionId);
          return { upload: uploadMessage(r.upload), message: r.message };
        },
      }),
    );
  };
}
