/**
 * Uploads (spec documents-parties-integrations "Receipt or document upload", platform-core §3 "Receipt upload":
 * allowed types jpg, jpeg, png, pdf). A file is judged by its content (magic bytes, read by `file-type`), never by
 * its name or the type the browser declared: an .exe renamed .pdf is refused. Pure apart from file-type's reading
 * of the buffer.
 */
import { fileTypeFromBuffer } from 'file-type';

export const UPLOAD_TYPES = ['file', 'receipt', 'bill', 'invoice'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const isUploadType = (v: string): v is UploadType => (UPLOAD_TYPES as readonly string[]).includes(v);

export const RECEIPT_STATUSES = ['matched', 'review', 'unmatched'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];
export const isReceiptStatus = (v: string): v is ReceiptStatus => (RECEIPT_STATUSES as readonly string[]).includes(v);

export type StoredContentType = 'image/jpeg' | 'image/png' | 'application/pdf';

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Files in one request (the gateway bounds the body by it). */
export const UPLOAD_MAX_FILES = 20;

export const UPLOAD_MSG = {
  bill: 'Bill uploaded successfully.',
  invoice: 'Invoice uploaded successfully.',
  receipt: 'Receipt has been uploaded successfully.',
  file: 'File uploaded successfully.',
  updated: 'Upload updated successfully.',
  matched: 'Receipt matched successfully.',
  notFound: 'Upload not found',
  transactionNotFound: 'Transaction not found',
  filesRequired: 'files is required',
  tooManyFiles: `files can hold at most ${UPLOAD_MAX_FILES} files`,
  badType: (name: string) => `${name} is not a jpg, jpeg, png or pdf file`,
  tooLarge: (name: string) => `${name} is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB`,
  empty: (name: string) => `${name} is empty`,
  uploadType: 'uploadType must be one of file, receipt, bill, invoice',
  onlyReceipts: 'Only a receipt can be matched to a transaction',
  merchantName: 'merchantName must be at most 200 characters',
  dateTime: 'dateTime must be a date (YYYY-MM-DD or an ISO 8601 date and time)',
  amount: 'amount must be a positive number with at most two decimals',
  nothingToUpdate: 'Give merchantName, dateTime or amount',
} as const;

/** What a file's bytes are, if they are a type we keep; by content only. */
export async function sniffUploadType(bytes: Uint8Array): Promise<{ contentType: StoredContentType; ext: 'jpg' | 'png' | 'pdf' } | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return null;
  if (found.mime === 'image/jpeg') return { contentType: 'image/jpeg', ext: 'jpg' };
  if (found.mime === 'image/png') return { contentType: 'image/png', ext: 'png' };
  if (found.mime === 'application/pdf') return { contentType: 'application/pdf', ext: 'pdf' };
  return null;
}

/** Why a file cannot be kept (naming it), or its type. */
export async function checkUploadFile(
  fileName: string,
  bytes: Uint8Array,
): Promise<{ ok: true; contentType: StoredContentType; ext: string } | { ok: false; reason: string }> {
  if (bytes.length === 0) return { ok: false, reason: UPLOAD_MSG.empty(fileName) };
  if (bytes.length > UPLOAD_MAX_BYTES) return { ok: false, reason: UPLOAD_MSG.tooLarge(fileName) };
  const type = await sniffUploadType(bytes);
  if (!type) return { ok: false, reason: UPLOAD_MSG.badType(fileName) };
  return { ok: true, ...type };
}

/** A file name safe to store and to send back in Content-Disposition: no path, no control characters, ≤ 200 characters. */
export function cleanUploadName(name: string, fallback = 'upload'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f"]/g;
  const clean = base.replace(controls, '').trim().slice(-200);
  return clean === '' ? fallback : clean;
}

/** The object key of an upload: by workspace and upload id (the file's name is metadata, never part of the key). */
export const objectKeyOf = (workspaceId: string, uploadId: string, ext: string) => `workspaces/${workspaceId}/uploads/${uploadId}.${ext}`;

/** A receipt's date as given: YYYY-MM-DD or an ISO 8601 date-time; answered as YYYY-MM-DD, or null when invalid. */
export function parseUploadDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  if (Number(m[1]) < 1900 || Number(m[1]) > 2200) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** The receipt status an upload shows (spec receiptStatus filter; values ours: matched, review, unmatched). */
export function receiptStatusOf(row: { matched_transaction_id: string | null; suggestion_count: number }): ReceiptStatus {
  if (row.matched_transaction_id) return 'matched';
  return row.suggestion_count > 0 ? 'review' : 'unmatched';
}
