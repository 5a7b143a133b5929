import { AppError, ErrorKind, eventMessage, isUuid, type EventType, type Knex, type ReceivedEvent } from '@ledgerline/platform';
import type { BankAccountSynced } from '@ledgerline/proto/events/v1/banking_pb';
import { isIsoDate } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { tieOutOf, type BankSnapshot, type TieOut } from '../domain/tie-out.js';
import { storeSnapshot, tieOutRows } from '../store/bank-snapshots.js';
import { accountOfBankAccount } from '../store/chart-store.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { deriveBankOpeningBalance } from './opening-balances.js';

/** Payloads from banking are validated like user input (RELIABILITY 14): a bad one fails loudly (dead letter). */
export function checkAccountSynced(s: BankAccountSynced): BankSnapshot & { availableBalanceCents: number | null } {
  const problems: string[] = [];
  const safe = (v: bigint, field: string) => {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) problems.push(field);
    return Number(v);
  };
  if (!isUuid(s.accountId)) problems.push('account_id');
  if (s.version < 1n) problems.push('version');
  if (!/^[A-Z]{3}$/.test(s.isoCurrencyCode)) problems.push('iso_currency_code');
  const syncedAt = new Date(s.syncedAt);
  if (!s.syncedAt || Number.isNaN(syncedAt.getTime())) problems.push('synced_at');
  if (s.earliestDate !== '' && !isIsoDate(s.earliestDate)) problems.push('earliest_date');
  if (s.postedCount < 0n || s.pendingCount < 0n) problems.push('posted_count/pending_count');
  const snapshot = {
    bankAccountId: s.accountId.toLowerCase(),
    version: safe(s.version, 'version'),
    accountType: s.type,
    isoCurrencyCode: s.isoCurrencyCode,
    currentBalanceCents: s.hasCurrentBalance ? safe(s.currentBalanceCents, 'current_balance_cents') : null,
    availableBalanceCents: s.hasAvailableBalance ? safe(s.availableBalanceCents, 'available_balance_cents') : null,
    postedTotalCents: safe(s.postedTotalCents, 'posted_total_cents'),
    postedCount: safe(s.postedCount, 'posted_count'),
    pendingTotalCents: safe(s.pendingTotalCents, 'pending_total_cents'),
    pendingCount: safe(s.pendingCount, 'pending_count'),
    earliestDate: s.earliestDate || null,
    syncedAt,
  };
  if (problems.length) throw new Error(`invalid bank_account.synced for ${s.accountId}: ${problems.join(', ')}`);
  return snapshot;
}

/**
 * `bank_account.synced`: keeps the snapshot when it is newer than the one held, and books the account's
 * opening balance from it (unless pinned by hand) through the opening-balance machinery — the same body
 * posts nothing, another reverses and re-posts. It uses banking's totals, so it holds whether or not the
 * sync's transactions (other subjects) have been booked yet.
 */
export async function applyAccountSynced(trx: Knex.Transaction, workspaceId: string, s: BankAccountSynced): Promise<void> {
  const snapshot = checkAccountSynced(s);
  const account = await accountOfBankAccount(trx, snapshot.bankAccountId);
  // bank_account.linked has its own consumer and may arrive a moment later: fail, and the bus redelivers.
  if (!account) throw new AppError(ErrorKind.Unavailable, MSG.bankAccountNotLinked);
  if (!(await storeSnapshot(trx, workspaceId, snapshot))) return; // an older (or the same) version: nothing to do
  await deriveBankOpeningBalance(trx, workspaceId, account);
}

export async function handleTieOutEvent(trx: Knex.Transaction, event: ReceivedEvent<typeof EventType.BankAccountSynced>): Promise<void> {
  await applyAccountSynced(trx, event.workspaceId, eventMessage(event));
}

export interface BankTieOutView extends TieOut {
  bankAccountId: string;
  ledgerAccountId: string;
  isoCurrencyCode: string;
  pinned: boolean;
}

/** The tie-out of every linked bank ledger account of the workspace (one statement). */
export class BankTieOutUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  list(tenant: Tenant): Promise<BankTieOutView[]> {
    return inWorkspace(this.deps.db, tenant, async (trx) =>
      (await tieOutRows(trx, tenant.workspaceId)).map((r) => ({
        ...tieOutOf(r),
        bankAccountId: r.bankAccountId,
        ledgerAccountId: r.ledgerAccountId,
        isoCurrencyCode: r.snapshot?.isoCurrencyCode ?? '',
        pinned: r.pinned,
      })),
    );
  }
}
