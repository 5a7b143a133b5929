import { AppError, ErrorKind, newId, withSystem, withTenant, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { readDocument, UnreadableDocumentError, type ReadResult } from '../reading/index.js';
import type { ObjectStore } from '../storage/object-store.js';
import {
  claimWaitingFile,
  enqueueBulkJob,
  finishFile,
  listBulkJobs,
  markJobActive,
  readsStarted,
  recordReadStarted,
  retryFileLater,
  type BulkUploadType,
} from '../store/bulk-upload.js';
import { insertDraft } from '../store/drafts.js';
import { markRead, uploadById } from '../store/uploads.js';
import type { UploadUseCases } from './uploads.js';

/** Reads one file (default: the reading helper's readDocument). Tests hand in a slower or failing one. */
export type BulkReader = typeof readDocument;

export interface BulkUploadDeps {
  db: Knex;
  logger: Logger;
  store: ObjectStore;
  /** The uploads use case: a receipt is read through its `read` hook (facts saved, then matched). */
  uploads: () => UploadUseCases;
  reader?: BulkReader;
  /** Attempts at a file that fails for another reason than its content (object store, database) before it is reported failed. */
  maxAttempts?: number;
  /** Reads of one file the process died in (a crash, not an error) before the file is reported failed. */
  maxCrashes?: number;
}

/** Why a file was given up after the process died reading it (GET /jobs failedReason). */
export const crashedReason = (fileName: string, crashes: number) =>
  `${fileName}: the service stopped ${crashes} times while reading it; upload it again or enter it by hand`;

const BULK_TYPES: readonly string[] = ['bill', 'invoice', 'receipt'];
export const isBulkUploadType = (t: string): t is BulkUploadType => BULK_TYPES.includes(t);
const JOB_STATUSES = ['waiting', 'active', 'completed', 'failed'];

const dollars = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 100) / 100);

/**
 * What reading found, as the draft's metaData (decision 0023; the drafts API's metaData fields): the bill or invoice
 * payload's REST names (billDate / invoiceDate, dueDate, invoiceCode / referenceNo, lineItems in dollars), uploadId,
 * and `extracted`: every value read, flat (billerName or customerName, merchant, total, currency, the dates, the
 * invoice number, where the text came from, each field's confidence as `<field>Confidence`), or `error` with the
 * reason the file could not be read. Fields reading did not find are left out, for the reviewer to fill.
 */
export function draftMetaData(
  entity: 'bill' | 'invoice',
  uploadId: string,
  fileName: string,
  r: ReadResult | undefined,
  reason?: string,
): Record<string, unknown> {
  const m: Record<string, unknown> = { uploadId };
  const extracted: Record<string, string | number> = { fileName };
  m.extracted = extracted;
  if (!r) {
    extracted.error = (reason ?? 'The file could not be read').slice(0, 1000);
    return m;
  }
  const party = r.vendorOrCustomer ?? r.merchant;
  if (entity === 'bill') {
    if (r.date) m.billDate = r.date;
    if (r.invoiceNumber) m.invoiceCode = r.invoiceNumber;
    if (party) extracted.billerName = party;
  } else {
    if (r.date) m.invoiceDate = r.date;
    if (r.invoiceNumber) m.referenceNo = r.invoiceNumber;
    if (party) extracted.customerName = party;
  }
  if (r.dueDate) m.dueDate = r.dueDate;
  const lines = r.lines ?? [];
  if (lines.length > 0) {
    m.lineItems = lines.map((l) => ({
      description: l.description.slice(0, 1000),
      amount: dollars(l.amount),
      ...(entity === 'invoice' && l.quantity !== undefined ? { quantity: l.quantity } : {}),
      ...(entity === 'invoice' && l.rate !== undefined ? { rate: dollars(l.rate) } : {}),
    }));
  } else if (r.total !== undefined) {
    m.lineItems = [{ description: (party ?? fileName).slice(0, 1000), amount: dollars(r.total) }];
  }
  for (const k of ['merchant', 'vendorOrCustomer', 'date', 'dueDate', 'invoiceNumber', 'currency'] as const) {
    const v = r[k];
    if (v) extracted[k] = v.slice(0, 1000);
  }
  if (r.total !== undefined) extracted.total = dollars(r.total)!;
  if (r.lines) extracted.lineCount = r.lines.length;
  extracted.source = r.source;
  for (const [k, c] of Object.entries(r.confidence)) if (typeof c === 'number') extracted[`${k}Confidence`] = c;
  return m;
}

/**
 * The bulk-upload job (services/documents/README.md "Bulk upload"): `enqueue` records a batch in the upload's own
 * transaction; `runOne` works one waiting file (any workspace) exactly once; `list` answers GET /jobs.
 */
export function createBulkUploadUseCases(deps: BulkUploadDeps) {
  const { db, logger, store } = deps;
  const reader = deps.reader ?? readDocument;
  const maxAttempts = deps.maxAttempts ?? 5;
  const maxCrashes = deps.maxCrashes ?? 3;

  return {
    /** In the transaction that marks the uploads stored: a job for those of type bill, invoice or receipt not enqueued yet. */
    async enqueue(trx: Knex.Transaction, workspaceId: string, uploadType: string, uploadIds: readonly string[]): Promise<string | undefined> {
      if (!isBulkUploadType(uploadType)) return undefined;
      return enqueueBulkJob(trx, { id: newId(), workspaceId, uploadType, uploadIds });
    },

    /**
     * Claims the next waiting file and works it. A bill or invoice: read, then its draft, the upload's read mark and
     * the file's "done" in the claim's transaction (a crash anywhere rolls back and the file is claimed again; the
     * draft exists once). A file whose content cannot be read becomes a draft without fields, with the reason. A
     * receipt: the uploads use case reads and matches it (idempotent by the upload's read mark), then the file is done.
     * Answers false when no file was waiting.
     */
    async runOne(): Promise<boolean> {
      let failure: { uploadId: string; jobId: string; attempts: number; err: unknown } | undefined;
      const worked = await withSystem(db, async (trx) => {
        const file = await claimWaitingFile(trx);
        if (!file) return false;
        await markJobActive(trx, file.job_id);
        try {
          const upload = await uploadById(trx, file.upload_id);
          if (!upload) {
            await finishFile(trx, { uploadId: file.upload_id, jobId: file.job_id, failed: true, reason: 'The file is no longer stored' });
            return true;
          }
          // Reads that started and neither finished nor failed with an error: the process died in them. A file that
          // keeps killing its reader is given up, or it would be claimed first forever and hold every file behind it.
          const crashes = (await readsStarted(trx, file.upload_id)) - file.attempts;
          if (crashes >= maxCrashes) {
            logger.error({ uploadId: file.upload_id, crashes }, 'bulk upload: the service died reading this file each time; reported failed');
            await finishFile(trx, { uploadId: file.upload_id, jobId: file.job_id, failed: true, reason: crashedReason(upload.file_name, crashes) });
            return true;
          }
          await withSystem(db, (own) => recordReadStarted(own, file));
          if (upload.upload_type === 'receipt') {
            const tenant = { workspaceId: file.workspace_id, userId: upload.created_by ?? undefined } as TenantContext;
            const unreadable = await deps
              .uploads()
              .read(tenant, upload.id, async ({ bytes, mime, kind }) => {
                const r = await reader({ bytes, mime, kind: kind === 'receipt' ? 'receipt' : 'bill' });
                return { merchantName: r.merchant, date: r.date, amountCents: r.total === undefined ? undefined : Math.round(r.total * 100) };
              })
              .then(
                () => undefined,
                (err: unknown) => {
                  if (!(err instanceof UnreadableDocumentError)) throw err;
                  // Left unread: its facts are for the person to type (PATCH /workspace-uploads/{id}), and matching uses them.
                  return `${upload.file_name}: ${err.message}`;
                },
              );
            await finishFile(trx, { uploadId: upload.id, jobId: file.job_id, failed: false, unreadable: unreadable !== undefined, reason: unreadable });
            return true;
          }
          const entity = upload.upload_type === 'invoice' ? 'invoice' : 'bill';
          const bytes = await store.get(upload.object_key);
          if (!bytes) throw new Error(`the object of upload ${upload.id} is missing`);
          let read: ReadResult | undefined;
          let reason: string | undefined;
          try {
            read = await reader({ bytes, mime: upload.content_type, kind: entity });
          } catch (err) {
            if (!(err instanceof UnreadableDocumentError)) throw err;
            reason = `${upload.file_name}: ${err.message}`;
          }
          const draftId = newId();
          await insertDraft(trx, {
            id: draftId,
            workspace_id: file.workspace_id,
            entity_type: entity,
            draft_type: 'bulk_upload',
            meta_data: draftMetaData(entity, upload.id, upload.file_name, read, reason),
            bulk_upload_id: file.job_id,
            published_at: new Date(),
            created_by: upload.created_by ?? '',
            last_modified_by: upload.created_by ?? '',
          });
          await markRead(trx, upload.id);
          await finishFile(trx, { uploadId: upload.id, jobId: file.job_id, draftId, failed: false, unreadable: read === undefined, reason });
          return true;
        } catch (err) {
          failure = { uploadId: file.upload_id, jobId: file.job_id, attempts: file.attempts + 1, err };
          throw err;
        }
      }).catch((err: unknown) => {
        if (!failure) throw err;
        return true;
      });
      if (failure) {
        const f = failure;
        logger.warn({ err: f.err, uploadId: f.uploadId, attempt: f.attempts }, 'bulk upload: a file failed; trying it again later');
        await withSystem(db, async (trx) => {
          if (f.attempts >= maxAttempts)
            await finishFile(trx, { uploadId: f.uploadId, jobId: f.jobId, failed: true, reason: 'The file could not be processed; upload it again' });
          else await retryFileLater(trx, f.uploadId, f.jobId, Math.min(60, 2 ** f.attempts));
        });
      }
      return worked;
    },

    /** Works waiting files until none is due (tests; the job calls runOne in its own loop). */
    async drain(): Promise<number> {
      let n = 0;
      while (await this.runOne()) n += 1;
      return n;
    },

    async list(t: TenantContext, statuses: readonly string[]) {
      if (!t.workspaceId) throw new AppError(ErrorKind.PermissionDenied, 'A workspace is required');
      const bad = statuses.filter((s) => !JOB_STATUSES.includes(s));
      const wanted = statuses.filter((s) => JOB_STATUSES.includes(s));
      // Other queue statuses (delayed, paused, ...) never hold a bulk-upload job: a filter of only those lists none.
      if (statuses.length > 0 && wanted.length === 0 && bad.length > 0) return [];
      return withTenant(db, t as TenantContext & { workspaceId: string }, (trx) => listBulkJobs(trx, wanted));
    },
  };
}

export type BulkUploadUseCases = ReturnType<typeof createBulkUploadUseCases>;
