import { createHash } from 'node:crypto';
import {
  AppError,
  ErrorKind,
  isUuid,
  newId,
  pageMeta,
  paging,
  withSystem,
  withTenant,
  type Knex,
  type Logger,
  type TenantContext,
  assertCanEdit,
} from '@ledgerline/platform';
import type { TransactionSource } from '../clients/transactions.js';
import { candidateWindow, decideMatch, type ScoredCandidate } from '../domain/receipt-matching.js';
import {
  checkUploadFile,
  cleanUploadName,
  isReceiptStatus,
  isUploadType,
  objectKeyOf,
  parseUploadDate,
  receiptStatusOf,
  UPLOAD_MAX_FILES,
  UPLOAD_MSG,
  type ReceiptStatus,
  type StoredContentType,
  type UploadType,
} from '../domain/uploads.js';
import type { ObjectStore } from '../storage/object-store.js';
import {
  clearMatch,
  deleteUpload,
  insertPendingUpload,
  listUploads,
  markRead,
  markStored,
  matchedTransactionIds,
  setMatch,
  setSuggestions,
  stalePending,
  updateFacts,
  uploadById,
  uploadsByIdempotencyKeys,
  uploadsByIds,
  type SuggestionJson,
  type TransactionSummaryJson,
  type UploadRow,
} from '../store/uploads.js';

type Tenant = TenantContext & { workspaceId: string };

/** What reading a stored file found (the reading helper's readDocument fills it; every field optional). */
export interface ReadFields {
  merchantName?: string;
  date?: string;
  amountCents?: number;
}
/** Reads one stored upload's file; the default reads nothing (the upload is marked read without fields). */
export type ReadUpload = (input: { bytes: Uint8Array; mime: StoredContentType; kind: UploadType }) => Promise<ReadFields>;
export const readNothing: ReadUpload = async () => ({});

export interface UploadsDeps {
  db: Knex;
  logger: Logger;
  store: ObjectStore;
  transactions: TransactionSource;
  /** In the transaction that marks a request's files stored (the bulk-upload job enqueues them there). */
  onStored?: (trx: Knex.Transaction, workspaceId: string, uploadType: UploadType, uploadIds: string[]) => Promise<unknown>;
}

export interface IncomingFile {
  fileName: string;
  content: Uint8Array;
}

export interface UploadView {
  row: UploadRow;
  receiptStatus: ReceiptStatus;
  signedUrl: string;
  signedUrlExpiresAt: string;
}

const notFound = (field: string, message: string) => new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
const tenantOf = (t: TenantContext): Tenant => {
  if (!t.workspaceId) throw new AppError(ErrorKind.PermissionDenied, 'A workspace is required');
  return t as Tenant;
};
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest();

/** Files kept in the object store, their rows, and receipt matching (services/documents/README.md, "Uploads"). */
export function createUploadUseCases(deps: UploadsDeps) {
  const { db, logger, store, transactions } = deps;

  const view = async (row: UploadRow): Promise<UploadView> => {
    const signed = await store.signedUrl(row.object_key, row.file_name, row.content_type);
    return {
      row,
      receiptStatus: receiptStatusOf({ matched_transaction_id: row.matched_transaction_id, suggestion_count: row.suggestions.length }),
      signedUrl: signed.url,
      signedUrlExpiresAt: signed.expiresAt.toISOString(),
    };
  };

  /** Suggestions (with their transaction) and, when clear enough, the automatic match of one receipt. */
  async function rematch(tenant: Tenant, id: string): Promise<void> {
    const row = await withTenant(db, tenant, (trx) => uploadById(trx, id));
    if (!row || row.matched_by === 'manual') return;
    const facts = { amountCents: row.amount_cents === null ? null : Number(row.amount_cents), date: row.receipt_date, merchantName: row.merchant_name };
    const candidates =
      facts.date && facts.amountCents ? await transactions.between(tenant, candidateWindow(facts.date).startDate, candidateWindow(facts.date).endDate) : [];
    const byId = new Map(candidates.map((c) => [c.id, c]));
    await withTenant(db, tenant, async (trx) => {
      const locked = await uploadById(trx, id, { forUpdate: true });
      if (!locked || locked.matched_by === 'manual') return;
      const taken = await matchedTransactionIds(
        trx,
        candidates.map((c) => c.id),
        id,
      );
      const decision = decideMatch(facts, candidates, taken);
      const withTxn = (s: ScoredCandidate): SuggestionJson => ({ ...s, transaction: byId.get(s.transactionId)! });
      const suggestions = decision.suggestions.map(withTxn);
      if (decision.kind === 'auto') {
        await setMatch(trx, id, { transaction: byId.get(decision.best.transactionId)!, by: 'auto', confidence: decision.best.confidence, suggestions });
        return;
      }
      if (locked.matched_by === 'auto') await clearMatch(trx, id);
      await setSuggestions(trx, id, suggestions);
    });
  }

  async function putObjects(
    rows: { id: string; key: string; bytes: Uint8Array; contentType: string; fileName: string }[],
  ): Promise<{ stored: string[]; failed: { id: string; fileName: string }[] }> {
    const stored: string[] = [];
    const failed: { id: string; fileName: string }[] = [];
    // Two at a time: bounded memory and sockets, whatever the number of files.
    for (let i = 0; i < rows.length; i += 2) {
      await Promise.all(
        rows.slice(i, i + 2).map(async (r) => {
          try {
            await store.put(r.key, r.bytes, r.contentType, md5(r.bytes).toString('base64'));
            stored.push(r.id);
          } catch (err) {
            logger.error({ err, uploadId: r.id }, 'putting an upload into the object store failed');
            failed.push({ id: r.id, fileName: r.fileName });
          }
        }),
      );
    }
    return { stored, failed };
  }

  return {
    /**
     * Keeps each acceptable file: its row 'pending', then its object, then the row 'stored' (a crash in between is
     * settled by the sweeper). Refused files are answered in failedFiles and leave nothing; when every file is
     * refused the call is a 400 naming them. A receipt attached to a transaction is matched to it by hand.
     */
    async create(t: TenantContext, input: { uploadType: string; files: IncomingFile[]; transactionId: string; idempotencyKey: string; createdBy?: string }) {
      const tenant = tenantOf(t);
      assertCanEdit(tenant);
      const problems: { field: string; message: string }[] = [];
      if (!isUploadType(input.uploadType)) problems.push({ field: 'uploadType', message: UPLOAD_MSG.uploadType });
      if (input.files.length === 0) problems.push({ field: 'files', message: UPLOAD_MSG.filesRequired });
      if (input.files.length > UPLOAD_MAX_FILES) problems.push({ field: 'files', message: UPLOAD_MSG.tooManyFiles });
      if (input.idempotencyKey.length > 200) problems.push({ field: 'Idempotency-Key', message: 'Idempotency-Key must be at most 200 characters' });
      if (problems.length > 0) throw AppError.invalid(problems);
      const uploadType = input.uploadType as UploadType;
      let matchTo: TransactionSummaryJson | undefined;
      if (input.transactionId !== '') {
        matchTo = await transactions.get(tenant, input.transactionId);
        if (!matchTo) throw notFound('transactionId', UPLOAD_MSG.transactionNotFound);
      }

      const checked = await Promise.all(
        input.files.map(async (f, index) => {
          const fileName = cleanUploadName(f.fileName, uploadType);
          return { index, fileName, bytes: f.content, check: await checkUploadFile(fileName, f.content) };
        }),
      );
      const failedFiles = checked.flatMap((c) => (c.check.ok ? [] : [{ fileName: c.fileName, reason: c.check.reason }]));
      const good = checked.filter((c) => c.check.ok);
      if (good.length === 0) throw AppError.invalid([{ field: 'files', message: failedFiles.map((f) => f.reason).join('; ') }]);

      const keyOf = (index: number) => (input.idempotencyKey ? `${input.idempotencyKey}#${index}` : null);
      // 1. Rows 'pending' (a retried key finds its first rows instead).
      const plan = await withTenant(db, tenant, async (trx) => {
        const existing = await uploadsByIdempotencyKeys(
          trx,
          good.map((g) => keyOf(g.index)).filter((k): k is string => k !== null),
        );
        const out: { id: string; key: string; bytes: Uint8Array; contentType: string; fileName: string; fresh: boolean; stored: boolean }[] = [];
        for (const g of good) {
          if (!g.check.ok) continue;
          const known = keyOf(g.index) ? existing.get(keyOf(g.index)!) : undefined;
          if (known) {
            out.push({
              id: known.id,
              key: known.object_key,
              bytes: g.bytes,
              contentType: known.content_type,
              fileName: known.file_name,
              fresh: false,
              stored: known.status === 'stored',
            });
            continue;
          }
          const id = newId();
          const key = objectKeyOf(tenant.workspaceId, id, g.check.ext);
          const inserted = await insertPendingUpload(trx, {
            id,
            workspaceId: tenant.workspaceId,
            uploadType,
            objectKey: key,
            fileName: g.fileName,
            contentType: g.check.contentType,
            sizeBytes: g.bytes.length,
            md5: md5(g.bytes).toString('hex'),
            idempotencyKey: keyOf(g.index),
            createdBy: input.createdBy ?? tenant.userId ?? null,
          });
          if (!inserted)
            throw new AppError(ErrorKind.FailedPrecondition, 'This upload is in progress; retry it', {
              fields: [{ field: 'Idempotency-Key', message: 'This upload is in progress; retry it' }],
            });
          out.push({ id, key, bytes: g.bytes, contentType: g.check.contentType, fileName: g.fileName, fresh: true, stored: false });
        }
        return out;
      });
      // 2. Objects (a key's object is put again when its first attempt did not finish).
      const { stored, failed } = await putObjects(plan.filter((p) => !p.stored));
      // 3. Rows 'stored', enqueued for reading and (a receipt attached to a transaction) matched to it, in one
      // transaction: a crash before it commits leaves pending rows for a retry with the key or for the sweeper.
      // A file the store refused leaves no row; a row the sweeper removed meanwhile (its first attempt crashed
      // long ago) is answered as not stored, and the object this attempt put is removed.
      const kept = await withTenant(db, tenant, async (trx) => {
        await markStored(trx, stored);
        for (const f of failed) await deleteUpload(trx, f.id);
        // What is stored now: this attempt's rows, an earlier attempt's, or the sweeper's (which enqueued them itself).
        const ids = (
          await uploadsByIds(
            trx,
            plan.map((p) => p.id),
          )
        )
          .filter((r) => r.status === 'stored')
          .map((r) => r.id);
        if (ids.length > 0) await deps.onStored?.(trx, tenant.workspaceId, uploadType, ids);
        if (matchTo) {
          for (const id of ids) {
            const row = await uploadById(trx, id, { forUpdate: true });
            if (row && !row.matched_transaction_id) await setMatch(trx, id, { transaction: matchTo, by: 'manual', confidence: null, suggestions: [] });
          }
        }
        return ids;
      });
      for (const f of failed) failedFiles.push({ fileName: f.fileName, reason: `${f.fileName} could not be stored; try again` });
      for (const p of plan.filter((x) => !x.stored && stored.includes(x.id) && !kept.includes(x.id))) {
        await store.delete(p.key).catch((err: unknown) => logger.warn({ err, uploadId: p.id }, 'removing the object of a swept upload failed'));
        failedFiles.push({ fileName: p.fileName, reason: `${p.fileName} could not be stored; try again` });
      }
      if (kept.length === 0) throw new AppError(ErrorKind.Unavailable, 'The files could not be stored; try again');
      const rows = await withTenant(db, tenant, (trx) => uploadsByIds(trx, kept));
      return { uploadedFiles: await Promise.all(rows.map(view)), failedFiles, message: UPLOAD_MSG[uploadType] };
    },

    async list(
      t: TenantContext,
      q: { uploadTypes: string[]; receiptStatuses: string[]; startDate: string; endDate: string; transactionId: string; page?: number; take?: number },
    ) {
      const tenant = tenantOf(t);
      const problems: { field: string; message: string }[] = [];
      const bad = q.uploadTypes.filter((u) => !isUploadType(u));
      if (bad.length > 0) problems.push({ field: 'uploadType', message: UPLOAD_MSG.uploadType });
      if (q.receiptStatuses.some((s) => !isReceiptStatus(s)))
        problems.push({ field: 'receiptStatus', message: 'receiptStatus must be one of matched, review, unmatched' });
      for (const [field, value] of [
        ['startDate', q.startDate],
        ['endDate', q.endDate],
      ] as const) {
        if (value !== '' && parseUploadDate(value) !== value) problems.push({ field, message: `${field} must be a date (YYYY-MM-DD)` });
      }
      if (q.page !== undefined && (!Number.isInteger(q.page) || q.page < 1)) problems.push({ field: 'page', message: 'page must be a positive integer' });
      if (q.take !== undefined && (!Number.isInteger(q.take) || q.take < 1 || q.take > 100))
        problems.push({ field: 'take', message: 'take must be an integer from 1 to 100' });
      if (problems.length > 0) throw AppError.invalid(problems);
      // A filter by another workspace's (or an unknown) transaction is a 404 naming it, as any id in a request.
      if (q.transactionId !== '' && !(await transactions.get(tenant, q.transactionId))) throw notFound('transactionId', UPLOAD_MSG.transactionNotFound);
      const p = paging(q.page, q.take);
      const { rows, count } = await withTenant(db, tenant, (trx) => listUploads(trx, { ...q, limit: p.take, offset: p.offset }));
      return { data: await Promise.all(rows.map(view)), meta: pageMeta(p, count) };
    },

    async get(t: TenantContext, id: string) {
      const tenant = tenantOf(t);
      const row = isUuid(id) ? await withTenant(db, tenant, (trx) => uploadById(trx, id)) : undefined;
      if (!row) throw notFound('id', UPLOAD_MSG.notFound);
      return view(row);
    },

    /** A stored receipt with its bytes (the transaction drawer's file route); any other upload or workspace: not found. */
    async file(t: TenantContext, id: string): Promise<{ view: UploadView; content: Uint8Array }> {
      const tenant = tenantOf(t);
      const row = isUuid(id) ? await withTenant(db, tenant, (trx) => uploadById(trx, id)) : undefined;
      if (!row || row.upload_type !== 'receipt') throw notFound('id', UPLOAD_MSG.notFound);
      const content = await store.get(row.object_key);
      if (!content) throw new AppError(ErrorKind.Unavailable, 'The file cannot be read now; try again');
      return { view: await view(row), content };
    },

    /** merchantName, dateTime, amount: the receipt's facts (until reading fills them); a receipt is matched again. */
    async update(t: TenantContext, id: string, input: { merchantName?: string; dateTime?: string; amountCents?: number }) {
      const tenant = tenantOf(t);
      assertCanEdit(tenant);
      if (!isUuid(id)) throw notFound('id', UPLOAD_MSG.notFound);
      const problems: { field: string; message: string }[] = [];
      const merchantName = input.merchantName?.trim();
      if (merchantName !== undefined && merchantName.length > 200) problems.push({ field: 'merchantName', message: UPLOAD_MSG.merchantName });
      const date = input.dateTime === undefined ? undefined : parseUploadDate(input.dateTime);
      if (date === null) problems.push({ field: 'dateTime', message: UPLOAD_MSG.dateTime });
      if (input.amountCents !== undefined && (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0 || input.amountCents > 100_000_000_000))
        problems.push({ field: 'amount', message: UPLOAD_MSG.amount });
      if (merchantName === undefined && input.dateTime === undefined && input.amountCents === undefined)
        problems.push({ field: 'merchantName', message: UPLOAD_MSG.nothingToUpdate });
      if (problems.length > 0) throw AppError.invalid(problems);
      const found = await withTenant(db, tenant, async (trx) => {
        const row = await uploadById(trx, id, { forUpdate: true });
        if (!row) return false;
        await updateFacts(trx, id, { merchantName, date: date ?? undefined, amountCents: input.amountCents });
        return true;
      });
      if (!found) throw notFound('id', UPLOAD_MSG.notFound);
      await rematch(tenant, id);
      return { upload: await this.get(tenant, id), message: UPLOAD_MSG.updated };
    },

    /** Matches an upload to a bank transaction of the workspace by hand (replacing any automatic match). */
    async match(t: TenantContext, id: string, transactionId: string) {
      const tenant = tenantOf(t);
      assertCanEdit(tenant);
      if (transactionId === '') throw AppError.invalid([{ field: 'transactionId', message: 'transactionId is required' }]);
      if (!isUuid(id) || !(await withTenant(db, tenant, (trx) => uploadById(trx, id)))) throw notFound('id', UPLOAD_MSG.notFound);
      const txn = await transactions.get(tenant, transactionId);
      if (!txn) throw notFound('transactionId', UPLOAD_MSG.transactionNotFound);
      await withTenant(db, tenant, async (trx) => {
        const row = await uploadById(trx, id, { forUpdate: true });
        if (row) await setMatch(trx, id, { transaction: txn, by: 'manual', confidence: null, suggestions: row.suggestions });
      });
      return { upload: await this.get(tenant, id), message: UPLOAD_MSG.matched };
    },

    /** Reads a stored upload's file with `read` (the reading helper's, handed in), saves what it found, matches a receipt. */
    async read(t: TenantContext, id: string, read: ReadUpload = readNothing) {
      const tenant = tenantOf(t);
      const row = await withTenant(db, tenant, (trx) => uploadById(trx, id));
      if (!row || row.read_status === 'read') return;
      const bytes = await store.get(row.object_key);
      if (!bytes) throw new Error(`the object of upload ${id} is missing`);
      const fields = await read({ bytes, mime: row.content_type, kind: row.upload_type });
      const date = fields.date ? parseUploadDate(fields.date) : null;
      await withTenant(db, tenant, async (trx) => {
        await updateFacts(trx, id, {
          merchantName: row.merchant_name ? undefined : fields.merchantName?.slice(0, 200),
          date: row.receipt_date ? undefined : (date ?? undefined),
          amountCents: row.amount_cents ? undefined : fields.amountCents && fields.amountCents > 0 ? fields.amountCents : undefined,
        });
        await markRead(trx, id);
      });
      if (row.upload_type === 'receipt') await rematch(tenant, id);
    },

    /**
     * Settles uploads a crash left 'pending' (any workspace): the object is there with the row's MD5 → stored;
     * otherwise the row and any partial object go (the request that made it was never answered with success).
     */
    async sweep(olderThanSeconds: number): Promise<{ stored: number; removed: number }> {
      let storedCount = 0;
      let removed = 0;
      for (;;) {
        const batch = await withSystem(db, async (trx) => {
          const rows = await stalePending(trx, olderThanSeconds, 50);
          const settled = new Map<string, { workspaceId: string; uploadType: UploadType; ids: string[] }>();
          for (const r of rows) {
            const head = await store.head(r.object_key);
            if (head && head.etag === r.md5 && head.size === Number(r.size_bytes)) {
              await markStored(trx, [r.id]);
              const group = settled.get(`${r.workspace_id}/${r.upload_type}`) ?? { workspaceId: r.workspace_id, uploadType: r.upload_type, ids: [] };
              group.ids.push(r.id);
              settled.set(`${r.workspace_id}/${r.upload_type}`, group);
              storedCount += 1;
            } else {
              if (head) await store.delete(r.object_key);
              await deleteUpload(trx, r.id);
              removed += 1;
            }
          }
          // A stored bill, invoice or receipt is read like one whose request finished: enqueued in the transaction
          // that marks it stored, so it is never stored and forgotten.
          for (const g of settled.values()) await deps.onStored?.(trx, g.workspaceId, g.uploadType, g.ids);
          return rows.length;
        });
        if (batch < 50) break;
      }
      if (storedCount + removed > 0) logger.info({ stored: storedCount, removed }, 'uploads sweeper settled pending uploads');
      return { stored: storedCount, removed };
    },
  };
}

export type UploadUseCases = ReturnType<typeof createUploadUseCases>;
