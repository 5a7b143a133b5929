import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';

export type LedgerClient = Client<typeof LedgerService>;

export interface DocumentPosting {
  sourceType: 'Bill' | 'Invoice' | 'ManualEntry';
  documentId: string;
  version: number;
  /** Empty for a void. */
  date: string;
  description: string;
  /** None: the document's current entry is reversed (void). Direction: manual journals only. */
  lines: { categoryId: string; amountCents: number; direction: string }[];
  /** Bills and invoices: the whole set of bank transactions paying it (none: every link released). */
  payments?: { transactionId: string; amountCents: number }[];
}

export interface DocumentPosted {
  entryId: string;
  seq: number;
}

/**
 * The ledger books bills, invoices and manual journals (PostDocument, services/ledger/README.md): this service sends
 * the document's version, the ledger picks Accounts Payable / Receivable and checks the categories (another
 * workspace's category is its NOT_FOUND naming `lineItems.N.categoryId`, passed on as is). Idempotent on
 * (document, version): a retried call answers the entry it posted the first time.
 */
export interface DocumentLedger {
  post(tenant: TenantContext, posting: DocumentPosting): Promise<DocumentPosted>;
  /** Everything `post` would refuse, refused; nothing is booked (PostDocument with dry_run, decision 0012). */
  check(tenant: TenantContext, posting: DocumentPosting): Promise<void>;
  /** The ids of every account of the caller's workspace (the check of a manual journal posts nothing). */
  accountIds(tenant: TenantContext): Promise<Set<string>>;
  /**
   * The workspace's chart: each account's balance (normal direction; as of `endDate` inclusive, the ledger's chart
   * rules: income and expenses for that fiscal year) and the Accounts Payable / Receivable ids, if any yet.
   */
  chart(tenant: TenantContext, endDate?: string): Promise<LedgerChart>;
  /** A transaction of the caller's workspace (undefined: not of it), as a payment suggestion needs it. */
  transaction(tenant: TenantContext, id: string): Promise<{ amountCents: number; date: string; vendorId: string; merchantName: string } | undefined>;
}

export interface LedgerChart {
  balances: Map<string, number>;
  payableId?: string;
  receivableId?: string;
}

export function documentLedger(client: LedgerClient): DocumentLedger {
  const request = (p: DocumentPosting, dryRun: boolean) => ({
    sourceType: p.sourceType,
    sourceId: p.documentId,
    version: BigInt(p.version),
    date: p.date,
    description: p.description,
    lines: p.lines.map((l) => ({ categoryId: l.categoryId, amountCents: BigInt(l.amountCents), direction: l.direction })),
    setPayments: p.payments !== undefined,
    payments: (p.payments ?? []).map((x) => ({ transactionId: x.transactionId, amountCents: BigInt(x.amountCents) })),
    dryRun,
  });
  return {
    async post(tenant, p) {
      const r = await client.postDocument(request(p, false), { headers: tenantHeaders(tenant) });
      return { entryId: r.result?.entryId ?? '', seq: Number(r.result?.seq ?? 0n) };
    },
    async check(tenant, p) {
      await client.postDocument(request(p, true), { headers: tenantHeaders(tenant) });
    },
    async accountIds(tenant) {
      const r = await client.getChartOfAccounts({}, { headers: tenantHeaders(tenant) });
      return new Set(r.chartOfAccounts.map((a) => a.id));
    },
    async transaction(tenant, id) {
      try {
        const t = (await client.getTransaction({ id }, { headers: tenantHeaders(tenant) })).transaction;
        return t ? { amountCents: Number(t.amountCents), date: t.date, vendorId: t.vendorId, merchantName: t.biller?.name ?? '' } : undefined;
      } catch (err) {
        if (ConnectError.from(err).code === Code.NotFound) return undefined;
        throw err;
      }
    },
    async chart(tenant, endDate = '') {
      const r = await client.getChartOfAccounts({ endDate }, { headers: tenantHeaders(tenant) });
      return {
        balances: new Map(r.chartOfAccounts.map((a) => [a.id, Number(a.balanceCents)])),
        payableId: r.chartOfAccounts.find((a) => a.systemKey === 'accounts_payable')?.id,
        receivableId: r.chartOfAccounts.find((a) => a.systemKey === 'accounts_receivable')?.id,
      };
    },
  };
}
