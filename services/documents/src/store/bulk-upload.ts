import { enableTenantRls, type Knex, type Migration } from '@ledgerline/platform';

/**
 * The bulk-upload job (issue #19; decision "bulk-upload job"): one `bulk_upload_jobs` row per batch of files uploaded
 * as bills, invoices or receipts (its id is the drafts' bulkUploadId), one `bulk_upload_files` row per file. The
 * files table is the work queue: a worker claims a waiting file with `for update skip locked` and, in that same
 * transaction, writes the file's draft, marks the upload read and the file done; a crash rolls all of it back and the
 * file is claimed again. `upload_id` is the primary key (the idempotency key: a file is in one batch, once), and
 * `drafts_bulk_upload_once` keeps a second draft of one upload out even if two workers ever raced.
 */
export const bulkUploadMigration: Migration = {
  name: '20261128090000_documents_bulk_upload',
  async up(knex) {
    await knex.raw(`create table bulk_upload_jobs (
      id uuid primary key,
      workspace_id uuid not null,
      upload_type text not null check (upload_type in ('bill', 'invoice', 'receipt')),
      status text not null default 'waiting' check (status in ('waiting', 'active', 'completed', 'failed')),
      seq bigserial not null,
      total_files integer not null check (total_files > 0),
      processed_files integer not null default 0,
      failed_files integer not null default 0,
      failed_reason text,
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      check (processed_files <= total_files and failed_files <= processed_files)
    )`);
    await knex.raw('create index bulk_upload_jobs_list on bulk_upload_jobs (workspace_id, created_at desc)');
    await enableTenantRls(knex, 'bulk_upload_jobs');
    await knex.raw(`create table bulk_upload_files (
      upload_id uuid primary key references uploads(id) on delete cascade,
      job_id uuid not null references bulk_upload_jobs(id) on delete cascade,
      workspace_id uuid not null,
      position integer not null,
      status text not null default 'waiting' check (status in ('waiting', 'done', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      draft_id uuid,
      reason text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`);
    await knex.raw("create index bulk_upload_files_waiting on bulk_upload_files (next_attempt_at, created_at) where status = 'waiting'");
    await enableTenantRls(knex, 'bulk_upload_files');
    await knex.raw("create unique index drafts_bulk_upload_once on drafts (workspace_id, (meta_data->>'uploadId')) where draft_type = 'bulk_upload'");
  },
  async down(knex) {
    await knex.raw('drop index if exists drafts_bulk_upload_once');
    await knex.raw('drop table if exists bulk_upload_files');
    await knex.raw('drop table if exists bulk_upload_jobs');
  },
};

/**
 * One row per read of a bulk-upload file that started (written and committed in its own transaction before the
 * read, so a crash of the process cannot roll it back). A read that ends in an error is counted in the file's
 * `attempts`; one that ends with the file done is never started again: the started reads beyond the attempts of a
 * file still waiting are reads the process died in. After a few of those the file is given up (reported failed),
 * so a file that crashes every reader cannot hold the queue forever.
 */
export const bulkUploadReadsMigration: Migration = {
  name: '20261128120000_documents_bulk_upload_reads',
  async up(knex) {
    await knex.raw(`create table bulk_upload_reads (
      id bigserial primary key,
      upload_id uuid not null references bulk_upload_files(upload_id) on delete cascade,
      workspace_id uuid not null,
      started_at timestamptz not null default now()
    )`);
    await knex.raw('create index bulk_upload_reads_upload on bulk_upload_reads (upload_id)');
    await enableTenantRls(knex, 'bulk_upload_reads');
  },
  async down(knex) {
    await knex.raw('drop table if exists bulk_upload_reads');
  },
};

export type BulkUploadType = 'bill' | 'invoice' | 'receipt';

export interface BulkJobRow {
  id: string;
  workspace_id: string;
  upload_type: BulkUploadType;
  status: 'waiting' | 'active' | 'completed' | 'failed';
  seq: string;
  total_files: number;
  processed_files: number;
  failed_files: number;
  failed_reason: string | null;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
}

export interface BulkFileRow {
  upload_id: string;
  job_id: string;
  workspace_id: string;
  position: number;
  attempts: number;
}

/** Enqueues the uploads not yet in a batch as one new job; answers its id, or undefined when all were enqueued before. */
export async function enqueueBulkJob(
  trx: Knex.Transaction,
  input: { id: string; workspaceId: string; uploadType: BulkUploadType; uploadIds: readonly string[] },
): Promise<string | undefined> {
  if (input.uploadIds.length === 0) return undefined;
  const known = (await trx.raw('select upload_id from bulk_upload_files where upload_id = any(?::uuid[])', [[...input.uploadIds]])).rows as {
    upload_id: string;
  }[];
  const seen = new Set(known.map((k) => k.upload_id));
  const fresh = input.uploadIds.filter((id) => !seen.has(id));
  if (fresh.length === 0) return undefined;
  await trx('bulk_upload_jobs').insert({ id: input.id, workspace_id: input.workspaceId, upload_type: input.uploadType, total_files: fresh.length });
  await trx('bulk_upload_files').insert(
    fresh.map((uploadId, position) => ({ upload_id: uploadId, job_id: input.id, workspace_id: input.workspaceId, position })),
  );
  return input.id;
}

/**
 * The next waiting file due (any workspace), locked for this transaction; other workers skip it. `for no key update`
 * (not `for update`): the read's record (`bulk_upload_reads`, written in another transaction while this one holds
 * the row) references the row, and a key-share lock must not wait for the claim.
 */
export async function claimWaitingFile(trx: Knex.Transaction): Promise<BulkFileRow | undefined> {
  const rows = (
    await trx.raw(
      "select upload_id, job_id, workspace_id, position, attempts from bulk_upload_files where status = 'waiting' and next_attempt_at <= now() order by created_at, position limit 1 for no key update skip locked",
    )
  ).rows as BulkFileRow[];
  return rows[0];
}

/**
 * The file is done (drafted or read: `failed` false) or given up (`failed` true); the job counts it and completes
 * with its last file. Answers false when the file was not waiting any more (nothing counted twice).
 */
export async function finishFile(
  trx: Knex.Transaction,
  f: { uploadId: string; jobId: string; draftId?: string; reason?: string; failed: boolean; unreadable?: boolean },
): Promise<boolean> {
  const n = await trx('bulk_upload_files')
    .where({ upload_id: f.uploadId, status: 'waiting' })
    .update({ status: f.failed ? 'failed' : 'done', draft_id: f.draftId ?? null, reason: f.reason ?? null, finished_at: trx.fn.now() });
  if (n === 0) return false;
  const bad = f.failed || f.unreadable ? 1 : 0;
  await trx.raw(
    `update bulk_upload_jobs set processed_files = processed_files + 1, failed_files = failed_files + ?,
       status = case when processed_files + 1 = total_files then (case when failed_files + ? = total_files then 'failed' else 'completed' end) else 'active' end,
       failed_reason = case when ? <> '' then coalesce(failed_reason, ?) else failed_reason end,
       finished_at = case when processed_files + 1 = total_files then now() else null end
     where id = ?`,
    [bad, bad, f.reason ?? '', f.reason ?? '', f.jobId],
  );
  return true;
}

/** A failed attempt at a file (a store or database error): tried again after `delaySeconds`. */
export async function retryFileLater(trx: Knex.Transaction, uploadId: string, jobId: string, delaySeconds: number): Promise<void> {
  await trx.raw(
    "update bulk_upload_files set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?) where upload_id = ? and status = 'waiting'",
    [delaySeconds, uploadId],
  );
  await trx.raw("update bulk_upload_jobs set attempts = attempts + 1, status = case when status = 'waiting' then 'active' else status end where id = ?", [
    jobId,
  ]);
}

/** The job is being worked on (its first file claimed). */
export async function markJobActive(trx: Knex.Transaction, jobId: string): Promise<void> {
  await trx.raw("update bulk_upload_jobs set status = 'active', attempts = greatest(attempts, 1) where id = ? and status = 'waiting'", [jobId]);
}

/** The workspace's jobs, newest first, at most 100. */
export async function listBulkJobs(trx: Knex.Transaction, statuses: readonly string[]): Promise<BulkJobRow[]> {
  const q = trx('bulk_upload_jobs')
    .select('*')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'seq', order: 'desc' },
    ])
    .limit(100);
  if (statuses.length > 0) q.whereIn('status', statuses);
  return (await q) as BulkJobRow[];
}

/** Records that a read of the file starts (its own transaction: it must survive the reader's crash). */
export async function recordReadStarted(trx: Knex.Transaction, file: BulkFileRow): Promise<void> {
  await trx('bulk_upload_reads').insert({ upload_id: file.upload_id, workspace_id: file.workspace_id });
}

/** Reads of the file that started so far. */
export async function readsStarted(trx: Knex.Transaction, uploadId: string): Promise<number> {
  return Number((await trx.raw('select count(*)::int as n from bulk_upload_reads where upload_id = ?', [uploadId])).rows[0].n);
}
