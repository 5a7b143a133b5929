/** Receipts attached to a transaction (spec §3 "Receipt upload": jpg, jpeg, png, pdf). Pure. */

export type ReceiptContentType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** The spec gives no size limit: ours is 10 MB per file, and at most 5 files per upload. */
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
export const RECEIPT_MAX_FILES = 5;
export const RECEIPT_EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf'] as const;

export const RECEIPT_MSG = {
  uploaded: 'Receipt has been uploaded successfully.',
  filesRequired: 'files is required',
  tooManyFiles: `files can hold at most ${RECEIPT_MAX_FILES} files`,
  badType: 'files must be jpg, jpeg, png or pdf files',
  tooLarge: `files must be at most ${RECEIPT_MAX_BYTES / 1024 / 1024} MB each`,
  empty: 'files cannot be empty',
  notFound: 'Receipt',
} as const;

/** The type the bytes are (magic numbers), whatever the name or declared type says; null for anything else. */
export function sniffReceiptType(bytes: Uint8Array): ReceiptContentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  // %PDF-
  if (bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d) return 'application/pdf';
  return null;
}

const EXTENSION_TYPES: Record<string, ReceiptContentType> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf' };

/** Why one file cannot be a receipt, or null when it can (its name's extension must agree with its content). */
export function receiptFileProblem(fileName: string, bytes: Uint8Array): string | null {
  if (bytes.length === 0) return RECEIPT_MSG.empty;
  if (bytes.length > RECEIPT_MAX_BYTES) return RECEIPT_MSG.tooLarge;
  const sniffed = sniffReceiptType(bytes);
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  if (!sniffed || EXTENSION_TYPES[ext] !== sniffed) return RECEIPT_MSG.badType;
  return null;
}

/** A file name safe to store and to send back in Content-Disposition: no path, no control characters, ≤ 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(-200);
  return clean === '' ? 'receipt' : clean;
}
