import type { Knex } from '@ledgerline/platform';
import type { BankSnapshot, TieOutInput } from '../domain/tie-out.js';

interface SnapshotRow {
  workspace_id: string;
  bank_account_id: string;
  version: number | string;
  account_type: string;
  iso_currency_code: string;
  current_balance_cents: number | string | null;
  posted_total_cents: number | string;
  posted_count: number | string;
  pending_total_cents: number | string;
  pending_count: number | string;
  earliest_date: string | null;
  synced_at: Date;
}

const num = (v: number | string | null | undefined) => (v === null || v === undefined ? 0 : Number(v));

function snapshotOfRow(r: SnapshotRow): BankSnapshot {
  return {
    bankAccountId: r.bank_account_id,
    version: num(r.version),
    accountType: r.account_type,
    isoCurrencyCode: r.iso_currency_code,
    currentBalanceCents: r.current_balance_cents === null ? null : Number(r.current_balance_cents),
    postedTotalCents: num(r.posted_total_cents),
    postedCount: num(r.posted_count),
    pendingTotalCents: num(r.pending_total_cents),
    pendingCount: num(r.pending_count),
    earliestDate: r.earliest_date,
    syncedAt: new Date(r.synced_at),
  };
}

/** The latest snapshot of a bank account (caller's tenant), if any. */
export async function snapshotOf(trx: Knex.Transaction, bankAccountId: string): Promise<BankSnapshot | undefined> {
  const row = (await trx('bank_snapshots').where({ bank_account_id: bankAccountId }).first()) as SnapshotRow | undefined;
  return row && snapshotOfRow(row);
}

/**
 * Keeps the snapshot if it is newer than the stored one (one statement: an older or equal version,
 * redelivered or overtaken, changes nothing). True when it was stored.
 */
export async function storeSnapshot(trx: Knex.Transaction, workspaceId: string, s: BankSnapshot & { availableBalanceCents: number | null }): Promise<boolean> {
  const r = await trx.raw(
    `insert into bank_snapshots as s (workspace_id, bank_account_id, version, account_type, iso_currency_code, current_balance_cents, available_balance_cents,
       posted_total_cents, posted_count, pending_total_cents, pending_count, earliest_date, synced_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (workspace_id, bank_account_id) do update set
       version = excluded.version, account_type = excluded.account_type, iso_currency_code = excluded.iso_currency_code,
       current_balance_cents = excluded.current_balance_cents, available_balance_cents = excluded.available_balance_cents,
       posted_total_cents = excluded.posted_total_cents, posted_count = excluded.posted_count, pending_total_cents = excluded.pending_total_cents,
       pending_count = excluded.pending_count, earliest_date = excluded.earliest_date, synced_at = excluded.synced_at, received_at = now()
     where s.version < excluded.version
     returning version`,
    [
      workspaceId,
      s.bankAccountId,
      s.version,
      s.accountType,
      s.isoCurrencyCode,
      s.currentBalanceCents,
      s.availableBalanceCents,
      s.postedTotalCents,
      s.postedCount,
      s.pendingTotalCents,
      s.pendingCount,
      s.earliestDate,
      s.syncedAt,
    ],
  );
  return (r.rows as unknown[]).length > 0;
}

/** Opening balances set by hand on bank ledger accounts: syncs leave them alone. */
export const pins = {
  has: async (trx: Knex.Transaction, accountId: string) =>
    (await trx('opening_balance_pins').where({ account_id: accountId }).first('account_id')) !== undefined,
  set: (trx: Knex.Transaction, workspaceId: string, accountId: string, userId: string | undefined) =>
    trx.raw(
      'insert into opening_balance_pins (workspace_id, account_id, pinned_by) values (?, ?, ?) on conflict (workspace_id, account_id) do update set pinned_by = excluded.pinned_by, pinned_at = now()',
      [workspaceId, accountId, userId ?? null],
    ),
  clear: (trx: Knex.Transaction, accountId: string) => trx('opening_balance_pins').where({ account_id: accountId }).delete(),
};

export interface TieOutRow extends TieOutInput {
  ledgerAccountId: string;
  bankAccountId: string;
  pinned: boolean;
}

/**
 * Everything the tie-out needs for every bank ledger account of the workspace, in ONE statement: the
 * snapshot, the account's line totals (from the monthly balances: one row per month, not per line), the
 * ledger's live bank transactions of the account (posted and pending), and whether its opening balance is
 * pinned. Called on every GET /accounts.
 */
export async function tieOutRows(trx: Knex.Transaction, workspaceId: string): Promise<TieOutRow[]> {
  const r = await trx.raw(
    `select a.id as ledger_account_id, a.bank_account_id, a.class_group, (p.account_id is not null) as pinned,
            s.bank_account_id as s_bank_account_id, s.version, s.account_type, s.iso_currency_code, s.current_balance_cents, s.posted_total_cents, s.posted_count,
            s.pending_total_cents, s.pending_count, s.earliest_date::text as earliest_date, s.synced_at,
            coalesce(b.debits, 0) as debits, coalesce(b.credits, 0) as credits,
            coalesce(t.posted_total, 0) as ledger_posted_total, coalesce(t.posted_count, 0) as ledger_posted_count, coalesce(t.pending_total, 0) as ledger_pending_total
       from accounts a
       left join bank_snapshots s on s.workspace_id = a.workspace_id and s.bank_account_id = a.bank_account_id
       left join opening_balance_pins p on p.workspace_id = a.workspace_id and p.account_id = a.id
       left join lateral (
         select sum(ab.debit_cents) as debits, sum(ab.credit_cents) as credits from account_balances ab where ab.workspace_id = a.workspace_id and ab.account_id = a.id
       ) b on true
       left join lateral (
         select sum(w.amount_cents) filter (where not w.pending) as posted_total, count(*) filter (where not w.pending) as posted_count,
                sum(w.amount_cents) filter (where w.pending) as pending_total
           from workspace_transactions w where w.ledger_account_id = a.id and not w.is_removed
       ) t on true
      where a.workspace_id = ? and a.bank_account_id is not null
      order by a.coa_id, a.id`,
    [workspaceId],
  );
  return (
    r.rows as (SnapshotRow & {
      ledger_account_id: string;
      class_group: string;
      pinned: boolean;
      s_bank_account_id: string | null;
      debits: string;
      credits: string;
      ledger_posted_total: string;
      ledger_posted_count: string;
      ledger_pending_total: string;
    })[]
  ).map((row) => ({
    ledgerAccountId: row.ledger_account_id,
    bankAccountId: row.bank_account_id,
    classGroup: row.class_group,
    pinned: row.pinned,
    snapshot: row.s_bank_account_id ? snapshotOfRow(row) : undefined,
    debitCents: num(row.debits),
    creditCents: num(row.credits),
    ledgerPostedTotalCents: num(row.ledger_posted_total),
    ledgerPostedCount: num(row.ledger_posted_count),
    ledgerPendingTotalCents: num(row.ledger_pending_total),
  }));
}
