import { enableTenantRls, type Knex, type Migration } from '@ledgerline/platform';

/**
 * Drafts (issue #19 item 5; decision "drafts"): one row per bill or invoice in progress. `meta_data` is the payload as
 * the client sent it (REST names, dollars). A deletion marks the row (`deleted_at`) and a conversion consumes it
 * (`document_id`, in the transaction that writes the document): neither is listed again, and both keep the id known,
 * so a retried delete or conversion answers what the first one did instead of creating anything twice.
 */
export const draftsMigration: Migration = {
  name: '20261128071500_documents_drafts',
  async up(knex) {
    await knex.raw(`create table drafts (
      id uuid primary key,
      workspace_id uuid not null,
      entity_type text not null check (entity_type in ('bill', 'invoice')),
      draft_type text not null,
      meta_data jsonb not null default '{}'::jsonb,
      bulk_upload_id uuid,
      published_at timestamptz not null,
      created_by text not null default '',
      last_modified_by text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      document_id uuid references documents(id),
      converted_at timestamptz,
      check (deleted_at is null or document_id is null)
    )`);
    await knex.raw('create index drafts_open on drafts (workspace_id, created_at) where deleted_at is null and document_id is null');
    await knex.raw('create index drafts_bulk_upload on drafts (workspace_id, bulk_upload_id)');
    await enableTenantRls(knex, 'drafts');
  },
  async down(knex) {
    await knex.raw('drop table if exists drafts');
  },
};

export interface DraftRow {
  id: string;
  workspace_id: string;
  entity_type: 'bill' | 'invoice';
  draft_type: string;
  meta_data: Record<string, unknown>;
  bulk_upload_id: string | null;
  published_at: Date;
  created_by: string;
  last_modified_by: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  document_id: string | null;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'entity_type',
  'draft_type',
  'meta_data',
  'bulk_upload_id',
  'published_at',
  'created_by',
  'last_modified_by',
  'created_at',
  'updated_at',
  'deleted_at',
  'document_id',
];

export async function insertDraft(trx: Knex.Transaction, row: Omit<DraftRow, 'created_at' | 'updated_at' | 'deleted_at' | 'document_id'>): Promise<DraftRow> {
  const [r] = await trx('drafts')
    .insert({ ...row, meta_data: JSON.stringify(row.meta_data) })
    .returning(COLUMNS);
  return r as DraftRow;
}

/** The workspace's drafts by id, open or not (row-level security keeps other workspaces' out); `lock` takes them FOR UPDATE. */
export async function draftsByIds(trx: Knex.Transaction, ids: readonly string[], lock = false): Promise<Map<string, DraftRow>> {
  if (ids.length === 0) return new Map();
  const q = trx('drafts').select(COLUMNS).whereIn('id', ids).orderBy('id');
  const rows = (await (lock ? q.forUpdate() : q)) as DraftRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

export interface DraftFilter {
  entityType: string;
  draftType: string;
  bulkUploadId: string;
  offset: number;
  limit: number;
}

/** Open drafts (neither deleted nor converted), oldest first (the order they were uploaded in). */
export async function listOpenDrafts(trx: Knex.Transaction, f: DraftFilter): Promise<{ rows: DraftRow[]; count: number }> {
  const q = trx('drafts').whereNull('deleted_at').whereNull('document_id');
  if (f.entityType) q.where('entity_type', f.entityType);
  if (f.draftType) q.where('draft_type', f.draftType);
  if (f.bulkUploadId) q.where('bulk_upload_id', f.bulkUploadId);
  const counted = (await q.clone().count({ count: '*' })) as { count: string }[];
  const count = counted[0]?.count ?? '0';
  const rows = (await q
    .select(COLUMNS)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .offset(f.offset)
    .limit(f.limit)) as DraftRow[];
  return { rows, count: Number(count) };
}

export async function updateDraft(
  trx: Knex.Transaction,
  id: string,
  patch: { meta_data?: Record<string, unknown>; draft_type?: string; published_at?: Date; last_modified_by: string },
): Promise<DraftRow> {
  const set: Record<string, unknown> = { last_modified_by: patch.last_modified_by, updated_at: trx.fn.now() };
  if (patch.meta_data !== undefined) set.meta_data = JSON.stringify(patch.meta_data);
  if (patch.draft_type !== undefined) set.draft_type = patch.draft_type;
  if (patch.published_at !== undefined) set.published_at = patch.published_at;
  const [r] = await trx('drafts').where({ id }).update(set).returning(COLUMNS);
  return r as DraftRow;
}

/** Marks these open drafts deleted; answers how many were. */
export async function markDraftsDeleted(trx: Knex.Transaction, ids: readonly string[], by: string): Promise<number> {
  if (ids.length === 0) return 0;
  return trx('drafts')
    .whereIn('id', ids)
    .whereNull('deleted_at')
    .whereNull('document_id')
    .update({ deleted_at: trx.fn.now(), last_modified_by: by, updated_at: trx.fn.now() });
}

/** Whether any draft of the workspace, open or not, came from this bulk upload. */
export async function bulkUploadKnown(trx: Knex.Transaction, bulkUploadId: string): Promise<boolean> {
  const r = await trx('drafts').where('bulk_upload_id', bulkUploadId).first('id');
  return r !== undefined;
}

/** The open drafts of a bulk upload, locked. */
export async function openDraftIdsOfBulkUpload(trx: Knex.Transaction, bulkUploadId: string): Promise<string[]> {
  const rows = (await trx('drafts').where('bulk_upload_id', bulkUploadId).whereNull('deleted_at').whereNull('document_id').forUpdate().select('id')) as {
    id: string;
  }[];
  return rows.map((r) => r.id);
}

/**
 * Inside the transaction that writes the document: locks the draft and, when it is still open, consumes it (answers
 * true). A draft converted or deleted meanwhile answers false and the caller rolls the document back.
 */
export async function consumeDraft(trx: Knex.Transaction, id: string, documentId: string, by: string): Promise<boolean> {
  const n = await trx('drafts')
    .where({ id })
    .whereNull('deleted_at')
    .whereNull('document_id')
    .update({ document_id: documentId, converted_at: trx.fn.now(), last_modified_by: by, updated_at: trx.fn.now() });
  return n === 1;
}

/**
 * Run with the system role: whether another workspace's drafts already name this bulk upload or this uploaded file.
 * An upload's id belongs to the workspace whose drafts first named it.
 */
export async function uploadOfAnotherWorkspace(
  trx: Knex.Transaction,
  workspaceId: string,
  ids: { bulkUploadId?: string; uploadId?: string },
): Promise<'bulkUploadId' | 'uploadId' | undefined> {
  if (ids.bulkUploadId && (await trx('drafts').where('bulk_upload_id', ids.bulkUploadId).whereNot('workspace_id', workspaceId).first('id')))
    return 'bulkUploadId';
  if (ids.uploadId && (await trx('drafts').whereRaw("lower(meta_data->>'uploadId') = ?", [ids.uploadId]).whereNot('workspace_id', workspaceId).first('id')))
    return 'uploadId';
  return undefined;
}
