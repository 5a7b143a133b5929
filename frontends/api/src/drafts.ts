// Drafts (spec documents-parties-integrations §3 Draft, §7, §8; issue #19 item 5): bills and invoices in progress,
// usually read from uploaded files, reviewed and converted. The generated OpenAPI shapes and one typed call per route;
// the hooks are in drafts-hooks.ts.
import type { ApiClient } from './client';
import type { Schemas } from './types';

export type Draft = Schemas['Draft'];
export type DraftMetaData = Schemas['DraftMetaDataBody'];
export type DraftBatch = Schemas['DraftBatch'];
export type DraftProblem = Schemas['DraftProblem'];
export type DraftList = Schemas['DraftList'];
export type DraftEntity = 'bill' | 'invoice';

/** Spec §2 mode of the bills and invoices tabs that reviews drafts. */
export const BULK_DRAFT_MODE = 'bulk-draft';

export const draftsApi = {
  list: (client: ApiClient, f: { entityType: DraftEntity; bulkUploadId?: string }, page: number, signal?: AbortSignal): Promise<DraftList> =>
    client.get('/drafts', { params: { query: { entityType: f.entityType, bulkUploadId: f.bulkUploadId || undefined, page, take: 100 } }, signal }),
  create: (client: ApiClient, body: { entityType: DraftEntity; draftType?: string; metaData?: DraftMetaData; bulkUploadId?: string; publishedAt?: string }) =>
    client.post('/drafts', { body }),
  update: (client: ApiClient, body: { id: string; metaData: DraftMetaData }) => client.patch('/drafts', { body }),
  remove: (client: ApiClient, ids: readonly string[]): Promise<DraftBatch> => client.delete('/drafts', { params: { query: { draftIds: ids.join(',') } } }),
  removeBulkUpload: (client: ApiClient, bulkUploadId: string): Promise<DraftBatch> =>
    client.delete('/drafts/bulk-delete', { params: { query: { bulkUploadId } } }),
  convert: (client: ApiClient, entity: DraftEntity, ids: readonly string[]): Promise<DraftBatch> =>
    client.post(entity === 'bill' ? '/accounting/drafts/create-bills' : '/accounting/drafts/create-invoices', { body: { draftIds: [...ids] } }),
};
