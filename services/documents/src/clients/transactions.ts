import { Code, ConnectError } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { Transaction } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { LedgerClient } from './ledger.js';
import type { TransactionSummaryJson } from '../store/uploads.js';

/** The bank transactions receipt matching reads from the ledger (its ListTransactions and GetTransaction). */
export interface TransactionSource {
  /** A transaction of the caller's workspace, or undefined (unknown, or another workspace's). */
  get(tenant: TenantContext, id: string): Promise<TransactionSummaryJson | undefined>;
  /** The workspace's transactions dated within the window (at most 500, the candidates of one receipt). */
  between(tenant: TenantContext, startDate: string, endDate: string): Promise<TransactionSummaryJson[]>;
}

export const summaryOf = (t: Transaction): TransactionSummaryJson => ({
  id: t.id,
  date: t.date,
  amountCents: Number(t.amountCents),
  merchantName: t.biller?.name ?? '',
  memo: t.memo,
  accountId: t.accountId,
  isoCurrencyCode: t.isoCurrencyCode,
});

export function transactionSource(client: LedgerClient): TransactionSource {
  return {
    async get(tenant, id) {
      try {
        const t = (await client.getTransaction({ id }, { headers: tenantHeaders(tenant) })).transaction;
        return t ? summaryOf(t) : undefined;
      } catch (err) {
        const code = ConnectError.from(err).code;
        if (code === Code.NotFound || code === Code.InvalidArgument) return undefined;
        throw err;
      }
    },
    async between(tenant, startDate, endDate) {
      const out: TransactionSummaryJson[] = [];
      for (let page = 1; page <= 5; page += 1) {
        const r = await client.listTransactions({ startDate, endDate, page, take: 100, order: 'ASC' }, { headers: tenantHeaders(tenant) });
        out.push(...r.data.map(summaryOf));
        if (!r.meta?.hasNextPage) break;
      }
      return out;
    },
  };
}
