import type { BulkUploadJob } from '@ledgerline/proto/documents/v1/bulk_upload_pb';
import { orNull } from '@ledgerline/platform';

/**
 * A bulk-upload job (documents service) as a GET /jobs Job (spec platform-core §3, queue 'bulk upload'): its progress is
 * data.transactionPushed of data.totalTransactions, counted in files; data.uploadType is bill, invoice or receipt and
 * data.requestId the batch (the drafts' bulkUploadId).
 */
export function bulkUploadJobJson(j: BulkUploadJob) {
  return {
    id: j.id,
    status: j.status,
    type: 'bulk upload',
    order: Number(j.order),
    data: { requestId: j.id, accountId: '', transactionPushed: j.processedFiles, totalTransactions: j.totalFiles, uploadType: orNull(j.uploadType) },
    failedReason: orNull(j.failedReason),
    attempts: j.attempts,
    createdOn: j.createdOn,
    finishedOn: orNull(j.finishedOn),
  };
}
