import { newId, type Knex } from '@ledgerline/platform';

/** Drawer events appended to `transaction_audit_logs` (the trail the other transaction changes write). */
export type DrawerAuditEvent = 'commented' | 'receipt_uploaded';

/** Appends one entry to a transaction's trail in the caller's transaction (the change and its log commit together). */
export async function auditDrawerEvent(
  trx: Knex.Transaction,
  entry: { workspaceId: string; transactionId: string; userId: string | null; event: DrawerAuditEvent; details: Record<string, unknown> },
): Promise<void> {
  await trx('transaction_audit_logs').insert({
    id: newId(),
    workspace_id: entry.workspaceId,
    transaction_id: entry.transactionId,
    user_id: entry.userId,
    event: entry.event,
    details: JSON.stringify(entry.details),
  });
}

/** A transaction of the caller's workspace (row-level security hides the others'), or undefined. */
export async function transactionExists(trx: Knex.Transaction, id: string): Promise<boolean> {
  return (await trx('workspace_transactions').where({ id }).first('id')) !== undefined;
}

/** Of these receipt (upload) ids, those the transaction's trail records as attached already. */
export async function receiptsInTrail(trx: Knex.Transaction, transactionId: string, receiptIds: readonly string[]): Promise<Set<string>> {
  if (receiptIds.length === 0) return new Set();
  const rows = (
    await trx.raw(
      "select details->>'receiptId' as id from transaction_audit_logs where transaction_id = ? and event = 'receipt_uploaded' and details->>'receiptId' = any(?::text[])",
      [transactionId, [...receiptIds]],
    )
  ).rows as { id: string }[];
  return new Set(rows.map((r) => r.id));
}
