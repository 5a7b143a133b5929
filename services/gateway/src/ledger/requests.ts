// The ledger's RPC requests built from REST queries that more than one route takes.
import type { MessageInitShape } from '@bufbuild/protobuf';
import { commaList } from '@ledgerline/platform';
import type { ListTransactionsRequestSchema } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { withAmounts } from '../http/amounts.js';
import type { TransactionFiltersQuery } from './schemas.js';

/** ListTransactions' filters from GET /transactions/v2's query (also GET /transactions/csv's): ids comma-separated, amounts in dollars. */
export function transactionFiltersRequest(q: TransactionFiltersQuery): MessageInitShape<typeof ListTransactionsRequestSchema> {
  return {
    accountIds: commaList(q.accountId),
    startDate: q.startDate ?? '',
    endDate: q.endDate ?? '',
    billerIds: commaList(q.billers),
    categoryIds: commaList(q.categories),
    description: q.description ?? '',
    ...withAmounts((a) => ({
      amountCents: a.cents('amount', q.amount),
      minAmountCents: a.cents('minAmount', q.minAmount),
      maxAmountCents: a.cents('maxAmount', q.maxAmount),
    })),
    flow: q.flow ?? '',
    finalization: q.finalization ?? '',
    order: q.order ?? '',
    transferStatus: q.transferStatus ?? '',
  };
}
