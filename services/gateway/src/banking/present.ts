// Bank accounts, their tie-out with the books and banking's jobs as the REST answers carry them (proto → JSON; money in
// decimal dollars).
import { centsToDollars, orNull } from '@ledgerline/platform';
import type { BankAccount, Job } from '@ledgerline/proto/banking/v1/banking_pb';
import type { BankTieOut } from '@ledgerline/proto/ledger/v1/ledger_pb';

export const cents = (v: bigint | undefined) => (v === undefined ? null : centsToDollars(v));

export function bankAccountJson(a: BankAccount) {
  return {
    id: a.id,
    name: a.name,
    institution: { id: a.institutionId, name: a.institutionName, logo: orNull(a.institutionLogo) },
    workspace: a.workspaceId,
    mask: a.mask,
    vendorAccountId: a.vendorAccountId,
    type: a.type,
    subtype: a.subtype,
    active: a.active,
    reconnectRequired: a.reconnectRequired,
    availableBalance: cents(a.availableBalanceCents),
    currentBalance: cents(a.currentBalanceCents),
    isoCurrencyCode: a.isoCurrencyCode,
    lastSyncedAt: orNull(a.lastSyncedAt),
    dateStartAt: orNull(a.dateStartAt),
    dateEndAt: orNull(a.dateEndAt),
    createdOn: a.createdOn,
    source: a.source,
  };
}

export function tieOutJson(t: BankTieOut) {
  return {
    status: t.status,
    bankBalance: centsToDollars(t.bankBalanceCents),
    booksBalance: centsToDollars(t.booksBalanceCents),
    pendingAmount: centsToDollars(t.pendingCents),
    difference: centsToDollars(t.differenceCents),
    asOf: orNull(t.asOf),
    ledgerAccountId: t.ledgerAccountId,
  };
}

export const SUMMED = new Set(['matches', 'differs', 'catching_up']);

/**
 * Cash in bank, both ways: the USD bank and card accounts with a bank balance, bank accounts as money held
 * and cards as negative (owed), summed in cents. unknown when none is included; catching_up when any
 * included account is; else differs when any differs; else matches.
 */
export function tieOutSummary(accounts: { type: string; tieOut: BankTieOut | undefined }[]) {
  let bank = 0n;
  let books = 0n;
  const statuses = new Set<string>();
  for (const { type, tieOut } of accounts) {
    if (!tieOut || !SUMMED.has(tieOut.status) || (type !== 'depository' && type !== 'credit')) continue;
    const sign = type === 'credit' ? -1n : 1n;
    bank += sign * tieOut.bankBalanceCents;
    books += sign * tieOut.booksBalanceCents;
    statuses.add(tieOut.status);
  }
  const status = statuses.size === 0 ? 'unknown' : statuses.has('catching_up') ? 'catching_up' : statuses.has('differs') ? 'differs' : 'matches';
  return { bankTotal: centsToDollars(bank), booksTotal: centsToDollars(books), difference: centsToDollars(books - bank), status };
}

export function jobJson(j: Job | undefined) {
  if (!j) throw new Error('banking answered without a job');
  return {
    id: j.id,
    status: j.status,
    type: j.type,
    order: Number(j.order),
    data: {
      requestId: j.data?.requestId ?? '',
      accountId: j.data?.accountId ?? '',
      transactionPushed: j.data?.transactionPushed ?? 0,
      totalTransactions: j.data?.totalTransactions ?? 0,
      uploadType: orNull(j.data?.uploadType ?? ''),
    },
    failedReason: orNull(j.failedReason),
    attempts: j.attempts,
    createdOn: j.createdOn,
    finishedOn: orNull(j.finishedOn),
  };
}
