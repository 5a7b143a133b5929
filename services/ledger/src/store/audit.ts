import { newId, type Knex } from '@ledgerline/platform';

export type AuditEvent =
  | 'imported'
  | 'bank_modified'
  | 'bank_removed'
  | 'categorised'
  | 'finalized'
  | 'unfinalized'
  | 'split'
  | 'split_updated'
  | 'unsplit'
  | 'biller_changed'
  | 'accrued'
  | 'accrual_updated'
  | 'accrual_stopped'
  | 'unaccrued'
  | 'transfer_paired'
  | 'transfer_unpaired';

/** Appends to a transaction's trail in the caller's transaction (the change and its log commit together). */
export async function audit(
  trx: Knex.Transaction,
  entry: { workspaceId: string; transactionId: string; userId?: string | null; event: AuditEvent; details?: Record<string, unknown> },
): Promise<void> {
  await trx('transaction_audit_logs').insert({
    id: newId(),
    workspace_id: entry.workspaceId,
    transaction_id: entry.transactionId,
    user_id: entry.userId ?? null,
    event: entry.event,
    details: JSON.stringify(entry.details ?? {}),
  });
}

/** Appends many trail entries in one INSERT, in the given order (ids are time-ordered). */
export async function auditMany(
  trx: Knex.Transaction,
  entries: readonly { workspaceId: string; transactionId: string; userId?: string | null; event: AuditEvent; details?: Record<string, unknown> }[],
): Promise<void> {
  const rows = entries.map((e) => ({
    id: newId(),
    workspace_id: e.workspaceId,
    transaction_id: e.transactionId,
    user_id: e.userId ?? null,
    event: e.event,
    details: JSON.stringify(e.details ?? {}),
  }));
  // Chunks keep the bind parameters under PostgreSQL's 65,535 (6 per row).
  for (let i = 0; i < rows.length; i += 5000) await trx('transaction_audit_logs').insert(rows.slice(i, i + 5000));
}
