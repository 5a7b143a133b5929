// The batches of bills and invoices uploaded in this tab's session whose bulk-upload job is being watched (decision
// 0029): a small store outside React, so a batch outlives the upload dialog and the tab it was sent from, and the pure
// rule of what the import notices say about them. Tested in test/import-batches.test.ts.
import { isJobInProgress, type DraftEntity, type Job, type UploadBatch } from '@ledgerline/api';
import { useSyncExternalStore } from 'react';

export interface ImportBatch extends UploadBatch {
  kind: DraftEntity;
}

let batches: readonly ImportBatch[] = [];
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export const importBatches = {
  add(batch: ImportBatch): void {
    batches = [...batches, batch];
    emit();
  },
  remove(keys: readonly string[]): void {
    batches = batches.filter((b) => !keys.includes(b.key));
    emit();
  },
  current: (): readonly ImportBatch[] => batches,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useImportBatches = (): readonly ImportBatch[] => useSyncExternalStore(importBatches.subscribe, importBatches.current, importBatches.current);

export type ImportOutcome =
  | { state: 'importing'; read: number; total: number }
  | { state: 'done'; entity: DraftEntity; failed: readonly { kind: DraftEntity; reason: string }[]; keys: readonly string[] };

/**
 * What the notices say of the watched batches, given each one's job (null: GET /jobs does not show it yet): importing
 * (with the files read so far) while any job is missing or in progress; once all are over, done — View opens the review
 * of the last batch's kind; a failed job (no file could be read) is named with its reason.
 */
export function importOutcome(watched: readonly ImportBatch[], jobs: ReadonlyMap<string, Job | null> | undefined): ImportOutcome | null {
  if (watched.length === 0) return null;
  const found = watched.map((b) => ({ batch: b, job: jobs?.get(b.key) ?? null }));
  if (found.some((f) => f.job === null || isJobInProgress(f.job))) {
    const known = found.flatMap((f) => (f.job ? [f.job] : []));
    return {
      state: 'importing',
      read: known.reduce((s, j) => s + j.data.transactionPushed, 0),
      total: known.reduce((s, j) => s + j.data.totalTransactions, 0),
    };
  }
  const failed = found
    .filter((f) => f.job?.status === 'failed')
    .map((f) => ({ kind: f.batch.kind, reason: f.job?.failedReason || 'The files could not be read' }));
  return { state: 'done', entity: watched.at(-1)!.kind, failed, keys: watched.map((b) => b.key) };
}
