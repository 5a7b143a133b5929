import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerClient } from './ledger.js';

export interface CreditPosting {
  sourceType: 'VendorCredit' | 'CreditMemo';
  creditId: string;
  version: number;
  /** Empty with no lines (a void). */
  date: string;
  description: string;
  /** None: the credit's current entry is reversed (void). */
  lines: { categoryId: string; amountCents: number }[];
}

export interface CreditPosted {
  entryId: string;
  seq: number;
}

/**
 * The ledger books vendor credits and credit memos (PostPartyCredit, services/ledger/README.md): this service sends the
 * document's version, the ledger picks Accounts Payable / Receivable and checks the categories (another workspace's
 * category is its NOT_FOUND naming `lineItems.N.categoryId`, passed on as is).
 */
export interface CreditLedger {
  post(tenant: TenantContext, posting: CreditPosting): Promise<CreditPosted>;
  /** Everything `post` would refuse, refused; nothing is booked (PostPartyCredit with dry_run). */
  check(tenant: TenantContext, posting: CreditPosting): Promise<void>;
}

export function creditLedger(client: LedgerClient): CreditLedger {
  const request = (p: CreditPosting, dryRun: boolean) => ({
    sourceType: p.sourceType,
    sourceId: p.creditId,
    version: BigInt(p.version),
    date: p.date,
    description: p.description,
    lines: p.lines.map((l) => ({ categoryId: l.categoryId, amountCents: BigInt(l.amountCents) })),
    dryRun,
  });
  return {
    async post(tenant, p) {
      const r = await client.postPartyCredit(request(p, false), { headers: tenantHeaders(tenant) });
      return { entryId: r.result?.entryId ?? '', seq: Number(r.result?.seq ?? 0n) };
    },
    async check(tenant, p) {
      await client.postPartyCredit(request(p, true), { headers: tenantHeaders(tenant) });
    },
  };
}
