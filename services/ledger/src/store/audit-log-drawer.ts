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

export interface MemberRow {
  user_id: string;
  name: string;
  email: string;
}

/** Records that a user acted in the workspace (the gateway let them in: identity vouched for the membership). */
export async function rememberMember(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
  actor: { name: string; email: string } | undefined,
): Promise<void> {
  const name = actor?.name ?? '';
  const email = actor?.email ?? '';
  await trx.raw(
    `insert into workspace_members_seen (workspace_id, user_id, name, email) values (?, ?, ?, ?)
     on conflict (workspace_id, user_id) do update set last_seen_at = now(),
       name = case when excluded.name = '' then workspace_members_seen.name else excluded.name end,
       email = case when excluded.email = '' then workspace_members_seen.email else excluded.email end`,
    [workspaceId, userId, name, email],
  );
}

export async function membersOf(trx: Knex.Transaction): Promise<MemberRow[]> {
  return (await trx('workspace_members_seen').select('user_id', 'name', 'email').orderByRaw("lower(coalesce(nullif(name, ''), email))")) as MemberRow[];
}

export async function membersByIds(trx: Knex.Transaction, ids: readonly string[]): Promise<MemberRow[]> {
  if (ids.length === 0) return [];
  return (await trx('workspace_members_seen').select('user_id', 'name', 'email').whereIn('user_id', ids)) as MemberRow[];
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
