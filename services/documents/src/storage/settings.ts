import type { DocumentsConfig } from '../config.js';

/** The object store's settings (DOCUMENTS_S3_*, DOCUMENTS_SIGNED_URL_SECONDS, DOCUMENTS_UPLOAD_*), part of the documents settings. */
export type StorageSettings = Pick<
  DocumentsConfig,
  Extract<keyof DocumentsConfig, `DOCUMENTS_S3_${string}` | 'DOCUMENTS_SIGNED_URL_SECONDS' | `DOCUMENTS_UPLOAD_${string}`>
>;

/** Refused at start in production: the sandbox's credentials, or half a pair of keys. */
export function assertStorageSettings(s: StorageSettings & { NODE_ENV: string }): void {
  if ((s.DOCUMENTS_S3_ACCESS_KEY_ID === '') !== (s.DOCUMENTS_S3_SECRET_ACCESS_KEY === '')) {
    throw new Error('DOCUMENTS_S3_ACCESS_KEY_ID and DOCUMENTS_S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  if (s.NODE_ENV === 'production' && s.DOCUMENTS_S3_SECRET_ACCESS_KEY === 'ledgerline-sandbox-secret-access-key') {
    throw new Error('DOCUMENTS_S3_SECRET_ACCESS_KEY: the sandbox secret cannot be used in production');
  }
}
