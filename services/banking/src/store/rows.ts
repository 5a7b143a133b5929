export interface ItemRow {
  id: string;
  workspace_id: string;
  item_id: string;
  /** Sealed (token-cipher.ts) under the key named by access_token_key_id; plain text only when that is null (rows from before encryption, until resealed). */
  access_token: string;
  access_token_key_id: string | null;
  institution_id: string;
  institution_name: string;
  cursor: string;
  loop_cursor: string;
  status: 'active' | 'login_required' | 'removed';
  last_synced_at: Date | null;
}

export interface AccountRow {
  id: string;
  workspace_id: string;
  plaid_item_id: string | null;
  vendor_account_id: string;
  name: string;
  official_name: string;
  mask: string;
  type: string;
  subtype: string;
  institution_id: string;
  institution_name: string;
  institution_logo: string;
  iso_currency_code: string;
  available_balance_cents: number | null;
  current_balance_cents: number | null;
  active: boolean;
  reconnect_required: boolean;
  source: 'plaid' | 'quickbook' | 'quickbook-plaid';
  last_synced_at: Date | null;
  /** Completed syncs of the account: the version of its bank_account.synced events. */
  synced_version: number;
  merged_into_account_id: string | null;
  created_at: Date;
  removed_at: Date | null;
}

export interface TransactionRow {
  id: string;
  workspace_id: string;
  account_id: string;
  external_id: string;
  amount_cents: number;
  iso_currency_code: string;
  date: string;
  authorized_date: string | null;
  name: string;
  merchant_name: string;
  pending: boolean;
  provider_category: string;
  version: number;
  removed_at: Date | null;
  removed_reason: string | null;
}

export interface JobRow {
  id: string;
  workspace_id: string;
  seq: number;
  plaid_item_id: string;
  account_ids: string[];
  account_id: string;
  type: string;
  status: 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';
  reason: string;
  request_id: string;
  attempts: number;
  transaction_pushed: number;
  total_transactions: number;
  failed_reason: string | null;
  run_after: Date;
  lease_expires_at: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}
