import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { PageMetaSchema } from '@ledgerline/proto/documents/v1/documents_pb';
import { DraftBatchSchema, DraftSchema, DraftsService as DraftsRpc, type Draft, type DraftBatch } from '@ledgerline/proto/documents/v1/drafts_pb';
import type { DraftBatch as Batch, DraftUseCases, DraftView } from '../usecases/drafts.js';

export function draftMessage(v: DraftView): Draft {
  const r = v.row;
  return create(DraftSchema, {
    id: r.id,
    draftType: r.draft_type,
    entityType: r.entity_type,
    metaDataJson: JSON.stringify(r.meta_data),
    createdByUser: r.created_by,
    lastModifiedByUser: r.last_modified_by,
    publishedDate: r.published_at.toISOString(),
    createdOn: r.created_at.toISOString(),
    updatedOn: r.updated_at.toISOString(),
    bulkUploadId: r.bulk_upload_id ?? '',
    firstError: v.firstError,
  });
}

const batchMessage = (b: Batch): DraftBatch =>
  create(DraftBatchSchema, {
    createdCount: b.createdCount,
    failedCount: b.failedCount,
    success: b.success,
    deletedCount: b.deletedCount,
    message: b.message,
    results: b.results.map((r) => ({ draftId: r.draftId, documentId: r.documentId, error: r.error })),
  });

/** The drafts' Connect handlers: the request's input rules, the caller's tenancy, one use case, the answer. */
export function draftsRoutes(u: DraftUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      DraftsRpc,
      withInputRules(DraftsRpc, {
        async createDraft(req, ctx) {
          const v = await u.create(requireTenant(ctx), {
            entityType: req.entityType,
            draftType: req.draftType,
            publishedAt: req.publishedAt,
            metaDataJson: req.metaDataJson,
            bulkUploadId: req.bulkUploadId,
          });
          return { draft: draftMessage(v) };
        },
        async listDrafts(req, ctx) {
          const a = await u.list(requireTenant(ctx), {
            entityType: req.entityType,
            draftType: req.draftType,
            bulkUploadId: req.bulkUploadId,
            page: req.page,
            take: req.take,
          });
          return { data: a.data.map(draftMessage), meta: create(PageMetaSchema, a.meta) };
        },
        async updateDraft(req, ctx) {
          const v = await u.update(requireTenant(ctx), {
            id: req.id,
            hasMetaData: req.hasMetaData,
            metaDataJson: req.metaDataJson,
            draftType: req.draftType,
            publishedAt: req.publishedAt,
          });
          return { draft: draftMessage(v) };
        },
        async deleteDrafts(req, ctx) {
          return { batch: batchMessage(await u.remove(requireTenant(ctx), req.draftIds)) };
        },
        async deleteBulkUploadDrafts(req, ctx) {
          return { batch: batchMessage(await u.removeBulkUpload(requireTenant(ctx), req.bulkUploadId)) };
        },
        async convertDrafts(req, ctx) {
          return { batch: batchMessage(await u.convert(requireTenant(ctx), req.entityType, req.draftIds)) };
        },
      }),
    );
  };
}
