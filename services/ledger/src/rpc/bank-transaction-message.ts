import { create } from '@bufbuild/protobuf';
import { BankAccountTransactionSchema, BillerSchema, type BankAccountTransaction } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { BankTransactionView } from '../store/bank-transactions.js';

/** A ledger line's bank transaction (fetchBankAccountTransaction) as its proto message; absent when there is none. */
export function bankTransactionMessage(v: BankTransactionView | null | undefined): BankAccountTransaction | undefined {
  if (!v) return undefined;
  return create(BankAccountTransactionSchema, {
    ...v,
    amountCents: BigInt(v.amountCents),
    biller: v.biller ? create(BillerSchema, { id: v.biller.id, name: v.biller.name }) : undefined,
  });
}
