import type { Client } from '@connectrpc/connect';
import { BulkUploadService } from '@ledgerline/proto/documents/v1/bulk_upload_pb';
import { DocumentsService } from '@ledgerline/proto/documents/v1/documents_pb';
import { DraftsService } from '@ledgerline/proto/documents/v1/drafts_pb';
import { FixedAssetsService } from '@ledgerline/proto/documents/v1/fixed_assets_pb';
import { UploadsService } from '@ledgerline/proto/documents/v1/uploads_pb';
import type { GatewayConfig } from '../config.js';
import { upstreamClient } from '../http/clients.js';

export type DocumentsClient = Client<typeof DocumentsService>;
export type UploadsClient = Client<typeof UploadsService>;
export type DraftsClient = Client<typeof DraftsService>;
export type FixedAssetsClient = Client<typeof FixedAssetsService>;
export type BulkUploadClient = Client<typeof BulkUploadService>;

/** The documents service serves five Connect services on one address: a client of each. */
export interface DocumentsClients {
  documents: DocumentsClient;
  uploads: UploadsClient;
  drafts: DraftsClient;
  fixedAssets: FixedAssetsClient;
  bulkUploads: BulkUploadClient;
}

/** `DOCUMENTS_URL`, `SERVICE_TIMEOUT_MS` per call. */
export function documentsClients(config: GatewayConfig): DocumentsClients {
  const to = config.DOCUMENTS_URL;
  return {
    documents: upstreamClient(DocumentsService, 'documents', config, to),
    uploads: upstreamClient(UploadsService, 'documents', config, to),
    drafts: upstreamClient(DraftsService, 'documents', config, to),
    fixedAssets: upstreamClient(FixedAssetsService, 'documents', config, to),
    bulkUploads: upstreamClient(BulkUploadService, 'documents', config, to),
  };
}
