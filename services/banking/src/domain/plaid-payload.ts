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
  personal_finance_category: z.object({ primary: z.string().max(200) }).nullable().optional(),
});

const plaidRemoved = z.object({ transaction_id: z.string().min(1).max(256), account_id: z.string().max(256).nullable().optional() });

const syncPage = z.object({
  added: z.array(plaidTransaction).max(MAX_PAGE_ITEMS),
  modified: z.array(plaidTransaction).max(MAX_PAGE_ITEMS),
  removed: z.array(plaidRemoved).max(MAX_PAGE_ITEMS),
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

export interface SyncPage {
  added: IncomingTransaction[];
  modified: IncomingTransaction[];
  removed: { externalId: string; vendorAccountId: string | null }[];
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
    nextCursor: p.next_cursor,
    hasMore: p.has_more,
  };
}
