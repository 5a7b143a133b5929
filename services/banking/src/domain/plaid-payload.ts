import { z } from 'zod';
import { plaidAmountToCents } from './money.js';

/**
 * A /transactions/sync page, validated like user input (RELIABILITY 14) before anything is written: a
 * bad amount, a float with sub-cent digits, a wrong currency, a malformed date or a huge array refuses
 * the whole page, so nothing of it is stored.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_PAGE_ITEMS = 1_000;

const date = z.string().regex(DATE);
const currency = z.string().regex(/^[A-Z]{3}$/);

const plaidTransaction = z.object({
  transaction_id: z.string().min(1).max(256),
  account_id: z.string().min(1).max(256),
  amount: z.number(),
  iso_currency_code: currency.nullable().optional(),
  unofficial_currency_code: z.string().nullable().optional(),
  date,
  authorized_date: date.nullable().optional(),
  name: z.string().max(1_000).nullable().optional(),
  merchant_name: z.string().max(1_000).nullable().optional(),
  pending: z.boolean(),
  pending_transaction_id: z.string().max(256).nullable().optional(),
  personal_finance_category: z
    .object({ primary: z.string().max(200) })
    .nullable()
    .optional(),
});

const balance = z.number().finite().nullable().optional();
const plaidAccount = z.object({
  account_id: z.string().min(1).max(256),
  balances: z.object({ current: balance, available: balance, iso_currency_code: currency.nullable().optional() }),
});

const plaidRemoved = z.object({ transaction_id: z.string().min(1).max(256), account_id: z.string().max(256).nullable().optional() });

const syncPage = z.object({
  added: z.array(plaidTransaction).max(MAX_PAGE_ITEMS),
  modified: z.array(plaidTransaction).max(MAX_PAGE_ITEMS),
  removed: z.array(plaidRemoved).max(MAX_PAGE_ITEMS),
  // The item's accounts with their balances as of this page (Plaid returns them on every page).
  accounts: z.array(plaidAccount).max(MAX_PAGE_ITEMS).optional(),
  next_cursor: z.string().min(1).max(10_000),
  has_more: z.boolean(),
});

export interface IncomingTransaction {
  externalId: string;
  vendorAccountId: string;
  amountCents: number;
  isoCurrencyCode: string;
  date: string;
  authorizedDate: string | null;
  name: string;
  merchantName: string;
  pending: boolean;
  pendingExternalId: string | null;
  providerCategory: string;
}

/** An account's balances as the bank reports them (levels, not flows: no sign flip), in cents. */
export interface IncomingBalance {
  vendorAccountId: string;
  currentCents: number | null;
  availableCents: number | null;
  isoCurrencyCode: string | null;
}

export interface SyncPage {
  added: IncomingTransaction[];
  modified: IncomingTransaction[];
  removed: { externalId: string; vendorAccountId: string | null }[];
  /** Absent when the page carried no `accounts`. */
  balances?: IncomingBalance[];
  nextCursor: string;
  hasMore: boolean;
}

export class InvalidPayloadError extends Error {
  override readonly name = 'InvalidPayloadError';
}

function toIncoming(t: z.infer<typeof plaidTransaction>): IncomingTransaction {
  const currencyCode = t.iso_currency_code ?? null;
  if (!currencyCode) throw new InvalidPayloadError(`transaction ${t.transaction_id} has no ISO currency code`);
  let amountCents: number;
  try {
    amountCents = plaidAmountToCents(t.amount);
  } catch (err) {
    throw new InvalidPayloadError(`transaction ${t.transaction_id}: ${(err as Error).message}`);
  }
  return {
    externalId: t.transaction_id,
    vendorAccountId: t.account_id,
    amountCents,
    isoCurrencyCode: currencyCode,
    date: t.date,
    authorizedDate: t.authorized_date ?? null,
    name: t.name ?? '',
    merchantName: t.merchant_name ?? '',
    pending: t.pending,
    pendingExternalId: t.pending_transaction_id ?? null,
    providerCategory: t.personal_finance_category?.primary ?? '',
  };
}

/** A balance in cents; more than 2 decimals is refused like an amount (RELIABILITY 14), never rounded. */
function balanceCents(accountId: string, field: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const cents = Math.round(value * 100);
  if (Math.abs(cents - value * 100) > 1e-6 * Math.max(1, Math.abs(cents)) || Math.abs(cents) > 1e13) {
    throw new InvalidPayloadError(`account ${accountId}: balances.${field} ${value} is not an amount with at most 2 decimals`);
  }
  return cents === 0 ? 0 : cents;
}

function parseBalances(accounts: z.infer<typeof plaidAccount>[]): IncomingBalance[] {
  return accounts.map((a) => ({
    vendorAccountId: a.account_id,
    currentCents: balanceCents(a.account_id, 'current', a.balances.current),
    availableCents: balanceCents(a.account_id, 'available', a.balances.available),
    isoCurrencyCode: a.balances.iso_currency_code ?? null,
  }));
}

export function parseSyncPage(raw: unknown): SyncPage {
  const parsed = syncPage.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidPayloadError(`invalid /transactions/sync page at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
  }
  const p = parsed.data;
  return {
    added: p.added.map(toIncoming),
    modified: p.modified.map(toIncoming),
    removed: p.removed.map((r) => ({ externalId: r.transaction_id, vendorAccountId: r.account_id ?? null })),
    ...(p.accounts ? { balances: parseBalances(p.accounts) } : {}),
    nextCursor: p.next_cursor,
    hasMore: p.has_more,
  };
}

/** The `accounts` of an /accounts/get or /accounts/balance/get answer, validated like a sync page's. */
export function parseAccountBalances(raw: unknown): IncomingBalance[] {
  const parsed = z.object({ accounts: z.array(plaidAccount).max(MAX_PAGE_ITEMS) }).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidPayloadError(`invalid accounts answer at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
  }
  return parseBalances(parsed.data.accounts);
}
