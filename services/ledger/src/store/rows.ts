import type { AccrualCategory } from '../domain/accrual.js';

export interface TxnRow {
  id: string;
  workspace_id: string;
  bank_transaction_id: string;
  bank_account_id: string;
  ledger_account_id: string | null;
  external_id: string;
  amount_cents: number;
  iso_currency_code: string;
  txn_date: string | null;
  name: string;
  memo: string;
  pending: boolean;
  biller_id: string | null;
  category_id: string | null;
  current_entry_id: string | null;
  version: number;
  is_removed: boolean;
  is_finalized: boolean;
  vendor_id: string | null;
  applied_rule_id: string | null;
  entity_type: string | null;
  entity_id: string | null;
  qbo_synced: boolean;
  is_split_parent: boolean;
  is_split_child: boolean;
  is_accrued_parent: boolean;
  is_accrual_child: boolean;
  is_opening_balance: boolean;
  /** The other side of a paired transfer (each side names the other). */
  transfer_pair_id: string | null;
  /** manual (a user), auto (the categorisation model), null (on import: merchant category or vendor rule). */
  creation_mode?: 'manual' | 'auto' | null;
  suggested_category_id?: string | null;
  suggested_vendor_id?: string | null;
  suggestion_confidence?: number | null;
  categorization_job_id?: string | null;
}

/** A transaction with what its list and detail views show. */
export interface TxnViewRow extends TxnRow {
  suggested_category_name?: string | null;
  category_name: string | null;
  category_coa_id: number | null;
  category_class: string | null;
  category_level: number | null;
  category_parent_id: string | null;
  biller_name: string | null;
  biller_category_id: string | null;
  ledger_account_name: string | null;
  /** The counterpart of a paired transfer (null when not paired). */
  pair_amount_cents: number | null;
  pair_date: string | null;
  pair_name: string | null;
  pair_bank_account_id: string | null;
  pair_account_name: string | null;
  /** The other parts of a split transaction (filled by the view queries). */
  splits?: SplitViewRow[];
  /** The schedule of an accrued transaction (filled by the view queries). */
  accrual?: TxnAccrualView;
}

export interface SplitViewRow {
  id: string;
  transaction_id: string;
  amount_cents: number;
  category_id: string;
  category_name: string;
  is_parent_part: boolean;
  position: number;
}

export interface BillerRow {
  id: string;
  workspace_id: string;
  name: string;
  category_id: string | null;
}

/** What a transaction view shows of its accrual (spec §3 Transaction accrualStartDate, accrualEndDate, accrualStatus, accruedChildren). */
export interface TxnAccrualView {
  startDate: string;
  endDate: string;
  status: 'active' | 'stopped';
  category: AccrualCategory;
  months: { id: string; date: string; amountCents: number; runningBalanceCents: number; isTransactionAdded: boolean; journalEntryId: string }[];
}
