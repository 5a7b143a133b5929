import type { Knex } from '@ledgerline/platform';
import type { ScoredCandidate } from '../domain/receipt-matching.js';
import type { StoredContentType, UploadType } from '../domain/uploads.js';

/** A matched transaction as the upload keeps it (spec "matched transaction summary"; fields ours). */
export interface TransactionSummaryJson {
  id: string;
  date: string;
  amountCents: number;
  merchantName: string;
  memo: string;
  accountId: string;
  isoCurrencyCode: string;
}

export interface SuggestionJson extends ScoredCandidate {
  transaction: TransactionSummaryJson;
}

export interface UploadRow {
  id: string;
  workspace_id: string;
  upload_type: UploadType;
  status: 'pending' | 'stored';
  object_key: string;
  file_name: string;
  content_type: StoredContentType;
  size_bytes: string;
  md5: string;
  merchant_name: string | null;
  receipt_date: string | null;
  amount_cents: string | null;
  matched_transaction_id: string | null;
  matched_transaction: TransactionSummaryJson | null;
  matched_on: Date | null;
  matched_by: 'auto' | 'manual' | null;
  match_confidence: string | null;
  suggestions: SuggestionJson[];
  read_status: '' | 'read';
  idempotency_key: string | null;
  created_by: string | null;
  created_at: Date;
  stored_at: Date | null;
}

const COLUMNS = `id, workspace_id, upload_type, status, object_key, file_name, content_type, size_bytes, md5, merchant_name,
  to_char(receipt_date, 'YYYY-MM-DD') as receipt_date, amount_cents, matched_transaction_id, matched_transaction, matched_on, matched_by,
  match_confidence, suggestions, read_status, idempotency_key, created_by, created_at, stored_at`;

export interface NewUpload {
  id: string;
  workspaceId: string;
  uploadType: UploadType;
  objectKey: string;
  fileName: string;
  contentType: StoredContentType;
  sizeBytes: number;
  md5: string;
  idempotencyKey: string | null;
  createdBy: string | null;
}

/** Writes the row 'pending' (before its object is put); false when the idempotency key is taken. */
export async function insertPendingUpload(trx: Knex.Transaction, u: NewUpload): Promise<boolean> {
  const r = await trx.raw(
    `insert into uploads (id, workspace_id, upload_type, status, object_key, file_name, content_type, size_bytes, md5, idempotency_key, created_by)
     values (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?) on conflict (workspace_id, idempotency_key) where idempotency_key is not null do nothing`,
    [u.id, u.workspaceId, u.uploadType, u.objectKey, u.fileName, u.contentType, u.sizeBytes, u.md5, u.idempotencyKey, u.createdBy],
  );
  return (r.rowCount ?? 0) === 1;
}

/** Marks pending rows stored; answers the ids it marked (a row the sweeper removed meanwhile is not among them). */
export async function markStored(trx: Knex.Transaction, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await trx.raw(
    "update uploads set status = 'stored', stored_at = now(), updated_at = now() where id = any(?::uuid[]) and status = 'pending' returning id",
    [[...ids]],
  );
  return (r.rows as { id: string }[]).map((x) => x.id);
}

export async function uploadById(
  trx: Knex.Transaction,
  id: string,
  opts: { includePending?: boolean; forUpdate?: boolean } = {},
): Promise<UploadRow | undefined> {
  const rows = (
    await trx.raw(`select ${COLUMNS} from uploads where id = ?${opts.includePending ? '' : " and status = 'stored'"}${opts.forUpdate ? ' for update' : ''}`, [
      id,
    ])
  ).rows as UploadRow[];
  return rows[0];
}

export async function uploadsByIdempotencyKeys(trx: Knex.Transaction, keys: readonly string[]): Promise<Map<string, UploadRow>> {
  if (keys.length === 0) return new Map();
  const rows = (await trx.raw(`select ${COLUMNS} from uploads where idempotency_key = any(?::text[])`, [[...keys]])).rows as UploadRow[];
  return new Map(rows.map((r) => [r.idempotency_key!, r]));
}

export async function uploadsByIds(trx: Knex.Transaction, ids: readonly string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return (await trx.raw(`select ${COLUMNS} from uploads where id = any(?::uuid[]) order by created_at, id`, [[...ids]])).rows as UploadRow[];
}

export interface UploadFilter {
  uploadTypes: string[];
  receiptStatuses: string[];
  startDate: string;
  endDate: string;
  transactionId: string;
  limit: number;
  offset: number;
}

/** Stored uploads, newest first; the receipt status is derived (matched, review, unmatched). */
export async function listUploads(trx: Knex.Transaction, f: UploadFilter): Promise<{ rows: UploadRow[]; count: number }> {
  const where: string[] = ["status = 'stored'"];
  const args: Knex.RawBinding[] = [];
  if (f.uploadTypes.length > 0) {
    where.push('upload_type = any(?::text[])');
    args.push(f.uploadTypes);
  }
  if (f.receiptStatuses.length > 0) {
    const parts: string[] = [];
    if (f.receiptStatuses.includes('matched')) parts.push('matched_transaction_id is not null');
    if (f.receiptStatuses.includes('review')) parts.push('(matched_transaction_id is null and jsonb_array_length(suggestions) > 0)');
    if (f.receiptStatuses.includes('unmatched')) parts.push('(matched_transaction_id is null and jsonb_array_length(suggestions) = 0)');
    where.push(`(${parts.join(' or ')})`);
  }
  // The date of an upload: the receipt's date when known, else the day it was uploaded.
  if (f.startDate) {
    where.push("coalesce(receipt_date, (created_at at time zone 'UTC')::date) >= ?::date");
    args.push(f.startDate);
  }
  if (f.endDate) {
    where.push("coalesce(receipt_date, (created_at at time zone 'UTC')::date) <= ?::date");
    args.push(f.endDate);
  }
  if (f.transactionId) {
    where.push('matched_transaction_id = ?');
    args.push(f.transactionId);
  }
  const clause = where.join(' and ');
  const count = Number((await trx.raw(`select count(*)::int as n from uploads where ${clause}`, args)).rows[0].n);
  const rows = (
    await trx.raw(`select ${COLUMNS} from uploads where ${clause} order by created_at desc, id desc limit ? offset ?`, [...args, f.limit, f.offset])
  ).rows as UploadRow[];
  return { rows, count };
}

export async function updateFacts(trx: Knex.Transaction, id: string, facts: { merchantName?: string; date?: string; amountCents?: number }): Promise<void> {
  const sets: string[] = [];
  const args: Knex.RawBinding[] = [];
  if (facts.merchantName !== undefined) {
    sets.push('merchant_name = ?');
    args.push(facts.merchantName);
  }
  if (facts.date !== undefined) {
    sets.push('receipt_date = ?::date');
    args.push(facts.date);
  }
  if (facts.amountCents !== undefined) {
    sets.push('amount_cents = ?');
    args.push(facts.amountCents);
  }
  if (sets.length === 0) return;
  await trx.raw(`update uploads set ${sets.join(', ')}, updated_at = now() where id = ?`, [...args, id]);
}

export async function setMatch(
  trx: Knex.Transaction,
  id: string,
  m: { transaction: TransactionSummaryJson; by: 'auto' | 'manual'; confidence: number | null; suggestions: SuggestionJson[] },
): Promise<void> {
  await trx.raw(
    'update uploads set matched_transaction_id = ?, matched_transaction = ?::jsonb, matched_on = now(), matched_by = ?, match_confidence = ?, suggestions = ?::jsonb, updated_at = now() where id = ?',
    [m.transaction.id, JSON.stringify(m.transaction), m.by, m.confidence, JSON.stringify(m.suggestions), id],
  );
}

/** Drops an automatic match (the receipt's facts changed and no longer point at it). */
export async function clearMatch(trx: Knex.Transaction, id: string): Promise<void> {
  await trx.raw(
    'update uploads set matched_transaction_id = null, matched_transaction = null, matched_on = null, matched_by = null, match_confidence = null, updated_at = now() where id = ?',
    [id],
  );
}

export async function setSuggestions(trx: Knex.Transaction, id: string, suggestions: SuggestionJson[]): Promise<void> {
  await trx.raw('update uploads set suggestions = ?::jsonb, updated_at = now() where id = ?', [JSON.stringify(suggestions), id]);
}

/** Transactions already matched to another receipt of the workspace (never auto-matched twice). */
export async function matchedTransactionIds(trx: Knex.Transaction, ids: readonly string[], except: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = (
    await trx.raw("select matched_transaction_id from uploads where matched_transaction_id = any(?::text[]) and id <> ? and status = 'stored'", [
      [...ids],
      except,
    ])
  ).rows as { matched_transaction_id: string }[];
  return new Set(rows.map((r) => r.matched_transaction_id));
}

export async function markRead(trx: Knex.Transaction, id: string): Promise<void> {
  await trx.raw("update uploads set read_status = 'read', updated_at = now() where id = ?", [id]);
}

/** Pending rows older than `olderThanSeconds` (any workspace; the sweeper's system transaction). */
export async function stalePending(trx: Knex.Transaction, olderThanSeconds: number, limit: number): Promise<UploadRow[]> {
  return (
    await trx.raw(
      `select ${COLUMNS} from uploads where status = 'pending' and created_at < now() - make_interval(secs => ?) order by created_at limit ? for update skip locked`,
      [olderThanSeconds, limit],
    )
  ).rows as UploadRow[];
}

export async function deleteUpload(trx: Knex.Transaction, id: string): Promise<void> {
  await trx.raw("delete from uploads where id = ? and status = 'pending'", [id]);
}
