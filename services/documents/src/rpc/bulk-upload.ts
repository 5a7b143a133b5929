import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { BulkUploadService } from '@ledgerline/proto/documents/v1/bulk_upload_pb';
import type { BulkUploadUseCases } from '../usecases/bulk-upload.js';

/** GET /jobs' bulk-upload jobs: the caller's workspace's, newest first. */
export function bulkUploadRoutes(b: BulkUploadUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      BulkUploadService,
      withInputRules(BulkUploadService, {
        async listBulkUploadJobs(req, ctx) {
          const rows = await b.list(requireTenant(ctx), req.statuses);
          return {
            jobs: rows.map((r) => ({
              id: r.id,
              status: r.status,
              uploadType: r.upload_type,
              order: BigInt(r.seq),
              totalFiles: r.total_files,
              processedFiles: r.processed_files,
              failedFiles: r.failed_files,
              failedReason: r.failed_reason ?? '',
              attempts: r.attempts,
              createdOn: r.created_at.toISOString(),
              finishedOn: r.finished_at?.toISOString() ?? '',
            })),
          };
        },
      }),
    );
  };
}
