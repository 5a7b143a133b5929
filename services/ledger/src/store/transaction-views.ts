import type { Knex } from '@ledgerline/platform';
import { withAccruals } from './accrual-store.js';
import type { SplitViewRow, TxnViewRow } from './rows.js';

/** The list filters, checked: empty strings and lists filter nothing. */
export interface ViewFilters {
  accountIds: string[];
  startDate: string;
  endDate: string;
  billerIds: string[];
  categoryIds: string[];
  description: string;
  amountCents?: bigint;
  minAmountCents?: bigint;
  maxAmountCents?: bigint;
  flow: 'all' | 'inflow' | 'outflow';
  finalization: 'all' | 'finalized' | 'nonFinalized';
  order: 'ASC' | 'DESC';
  transferStatus: '' | 'review' | 'paired';
}

export interface AuditRow {
  id: string;
  transaction_id: string;
  user_id: string | null;
  event: string;
  details: Record<string, unknown>;
  created_at: Date;
}

function viewQuery(trx: Knex.Transaction) {
  return trx('workspace_transactions as t')
    .leftJoin('accounts as c', 'c.id', 't.category_id')
    .leftJoin('billers as b', 'b.id', 't.biller_id')
    .leftJoin('accounts as la', 'la.id', 't.ledger_account_id')
    .leftJoin('workspace_transactions as p', 'p.id', 't.transfer_pair_id')
    .leftJoin('accounts as pa', 'pa.id', 'p.ledger_account_id')
    .leftJoin('accounts as sc', 'sc.id', 't.suggested_category_id')
    .select(
      't.*',
      'sc.name as suggested_category_name',
      'c.name as category_name',
      'c.coa_id as category_coa_id',
      'c.class_group as category_class',
      'c.level as category_level',
      'c.parent_id as category_parent_id',
      'b.name as biller_name',
      'b.category_id as biller_category_id',
      'la.name as ledger_account_name',
      'p.amount_cents as pair_amount_cents',
      'p.txn_date as pair_date',
      'p.name as pair_name',
      'p.bank_account_id as pair_bank_account_id',
      'pa.name as pair_account_name',
    );
}

/** Attaches the split parts to the split parents among `rows` (and its schedule to each accrued transaction). */
async function withSplits(trx: Knex.Transaction, viewRows: TxnViewRow[]): Promise<TxnViewRow[]> {
  const rows = await withAccruals(trx, viewRows);
  const parents = rows.filter((r) => r.is_split_parent).map((r) => r.id);
  if (parents.length === 0) return rows;
  const parts = (await trx('transaction_splits as s')
    .join('accounts as a', 'a.id', 's.category_id')
    .whereIn('s.transaction_id', parents)
    .orderBy(['s.transaction_id', 's.position'])
    .select('s.id', 's.transaction_id', 's.amount_cents', 's.category_id', 'a.name as category_name', 's.is_parent_part', 's.position')) as SplitViewRow[];
  return rows.map((r) => (r.is_split_parent ? { ...r, splits: parts.filter((p) => p.transaction_id === r.id) } : r));
}

/** The views of `ids` (removed ones included), in no particular order. */
export async function views(trx: Knex.Transaction, ids: string[]): Promise<TxnViewRow[]> {
  return withSplits(trx, (await viewQuery(trx).whereIn('t.id', ids)) as TxnViewRow[]);
}

/** The views of `ids`, in that order. */
export async function viewsInOrder(trx: Knex.Transaction, ids: string[]): Promise<TxnViewRow[]> {
  const byId = new Map((await views(trx, ids)).map((v) => [v.id, v]));
  return ids.map((id) => byId.get(id)).filter((v): v is TxnViewRow => !!v);
}

/** The view of a live (not removed) transaction, or undefined. */
export async function liveView(trx: Knex.Transaction, id: string): Promise<TxnViewRow | undefined> {
  const row = (await viewQuery(trx).where('t.id', id).where('t.is_removed', false).first()) as TxnViewRow | undefined;
  if (!row) return undefined;
  return (await withSplits(trx, [row]))[0] as TxnViewRow;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of the live transactions matching the filters (by date, then id, in `order`) and how many match. */
export async function listViews(
  trx: Knex.Transaction,
  f: ViewFilters,
  page: { skip: number; take: number },
): Promise<{ data: TxnViewRow[]; itemCount: number }> {
  const q = viewQuery(trx).where('t.is_removed', false);
  if (f.accountIds.length) q.whereIn('t.bank_account_id', f.accountIds);
  if (f.startDate) q.where('t.txn_date', '>=', f.startDate);
  if (f.endDate) q.where('t.txn_date', '<=', f.endDate);
  if (f.billerIds.length) q.whereIn('t.biller_id', f.billerIds);
  if (f.categoryIds.length) q.whereIn('t.category_id', f.categoryIds);
  if (f.description.trim()) {
    const like = `%${escapeLike(f.description.trim())}%`;
    q.where((w) => w.whereILike('t.name', like).orWhereILike('t.memo', like).orWhereILike('b.name', like));
  }
  if (f.amountCents !== undefined) q.whereRaw('abs(t.amount_cents) = ?', [f.amountCents.toString()]);
  if (f.minAmountCents !== undefined) q.whereRaw('abs(t.amount_cents) >= ?', [f.minAmountCents.toString()]);
  if (f.maxAmountCents !== undefined) q.whereRaw('abs(t.amount_cents) <= ?', [f.maxAmountCents.toString()]);
  if (f.flow === 'inflow') q.where('t.amount_cents', '>', 0);
  if (f.flow === 'outflow') q.where('t.amount_cents', '<', 0);
  if (f.finalization === 'finalized') q.where('t.is_finalized', true);
  if (f.finalization === 'nonFinalized') q.where('t.is_finalized', false);
  if (f.transferStatus === 'paired') q.whereNotNull('t.transfer_pair_id');
  if (f.transferStatus === 'review') q.whereNull('t.transfer_pair_id').where('c.class_group', 'Transfer');
  const countRow = (await q.clone().clearSelect().clearOrder().count<{ n: string }[]>({ n: '*' }).first()) as { n: string | number } | undefined;
  const itemCount = Number(countRow?.n ?? 0);
  const dir = f.order === 'ASC' ? 'asc' : 'desc';
  const data = await withSplits(
    trx,
    (await q
      .orderBy([
        { column: 't.txn_date', order: dir },
        { column: 't.id', order: dir },
      ])
      .offset(page.skip)
      .limit(page.take)) as TxnViewRow[],
  );
  return { data, itemCount };
}

/** One page of the trail (newest first) of one transaction, or of the workspace when `transactionId` is empty, and its size. */
export async function auditLogPage(
  trx: Knex.Transaction,
  transactionId: string,
  page: { skip: number; take: number },
): Promise<{ data: AuditRow[]; itemCount: number }> {
  const q = trx('transaction_audit_logs');
  if (transactionId) q.where({ transaction_id: transactionId });
  const countRow = (await q.clone().count<{ n: number }[]>({ n: '*' }).first()) as { n: number | string } | undefined;
  const data = (await q.orderBy('id', 'desc').offset(page.skip).limit(page.take)) as AuditRow[];
  return { data, itemCount: Number(countRow?.n ?? 0) };
}
