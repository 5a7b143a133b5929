// Plaid's JSON shapes as this sandbox sends them. Field names and nullability follow the `plaid` SDK's
// `dist/api.d.ts` (47.0.0); enums are plain string unions here so the runtime does not depend on the SDK.

export interface PlaidErrorBody {
  error_type: string;
  error_code: string;
  error_code_reason?: string | null;
  error_message: string;
  display_message: string | null;
  request_id: string;
  causes?: unknown[];
  status?: number | null;
  documentation_url?: string;
  suggested_action?: string | null;
}

export interface AccountBalance {
  available: number | null;
  current: number | null;
  limit: number | null;
  iso_currency_code: string | null;
  unofficial_currency_code: string | null;
  last_updated_datetime?: string | null;
}

export interface AccountBase {
  account_id: string;
  balances: AccountBalance;
  mask: string | null;
  name: string;
  official_name: string | null;
  type: 'depository' | 'credit';
  subtype: 'checking' | 'savings' | 'credit card';
  persistent_account_id?: string;
  holder_category?: 'business' | 'personal' | 'unrecognized' | null;
}

export interface Location {
  address: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  lat: number | null;
  lon: number | null;
  store_number: string | null;
}

export interface PaymentMeta {
  reference_number: string | null;
  ppd_id: string | null;
  payee: string | null;
  by_order_of: string | null;
  payer: string | null;
  payment_method: string | null;
  payment_processor: string | null;
  reason: string | null;
}

export interface TransactionCounterparty {
  name: string;
  entity_id?: string | null;
  type: string;
  website: string | null;
  logo_url: string | null;
  confidence_level?: string | null;
}

export interface Transaction {
  account_id: string;
  account_owner: string | null;
  amount: number;
  authorized_date: string | null;
  authorized_datetime: string | null;
  category: string[] | null;
  category_id: string | null;
  check_number: string | null;
  counterparties: TransactionCounterparty[];
  date: string;
  datetime: string | null;
  iso_currency_code: string | null;
  location: Location;
  logo_url: string | null;
  merchant_entity_id: string | null;
  merchant_name: string | null;
  name: string;
  original_description: string | null;
  payment_channel: 'online' | 'in store' | 'other';
  payment_meta: PaymentMeta;
  pending: boolean;
  pending_transaction_id: string | null;
  personal_finance_category: { primary: string; detailed: string; confidence_level: string | null } | null;
  personal_finance_category_icon_url: string;
  transaction_code: string | null;
  transaction_id: string;
  transaction_type: 'digital' | 'place' | 'special' | 'unresolved';
  unofficial_currency_code: string | null;
  website: string | null;
}

export interface RemovedTransaction {
  transaction_id: string;
  account_id: string;
}

export interface Item {
  item_id: string;
  institution_id: string | null;
  institution_name: string | null;
  webhook: string | null;
  auth_method: string | null;
  error: PlaidErrorBody | null;
  available_products: string[];
  billed_products: string[];
  products: string[];
  consented_products: string[];
  consent_expiration_time: string | null;
  update_type: 'background' | 'user_present_required';
}

export interface JWKPublicKey {
  alg: string;
  crv: string;
  kid: string;
  kty: string;
  use: string;
  x: string;
  y: string;
  created_at: number;
  expired_at: number | null;
}

export interface SyncUpdatesAvailableWebhook {
  webhook_type: 'TRANSACTIONS';
  webhook_code: 'SYNC_UPDATES_AVAILABLE';
  item_id: string;
  initial_update_complete: boolean;
  historical_update_complete: boolean;
  environment: 'sandbox';
}

export interface ItemWebhook {
  webhook_type: 'ITEM';
  webhook_code: 'ERROR' | 'LOGIN_REPAIRED' | 'PENDING_DISCONNECT' | 'USER_PERMISSION_REVOKED' | 'WEBHOOK_UPDATE_ACKNOWLEDGED';
  item_id: string;
  error?: PlaidErrorBody | null;
  new_webhook_url?: string;
  reason?: string;
  environment: 'sandbox';
}

export type WebhookBody = SyncUpdatesAvailableWebhook | ItemWebhook;
