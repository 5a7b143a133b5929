import { create } from '@bufbuild/protobuf';
import { EventType, writeEvent, writeEvents, type Knex } from '@ledgerline/platform';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { accounts, type AccountTotals } from '../store/banking-store.js';
import type { AccountRow, ItemRow, TransactionRow } from '../store/rows.js';
import { SOURCE } from './context.js';

function transactionPayload(row: TransactionRow) {
  return create(BankTransactionSchema, {
    id: row.id,
    accountId: row.account_id,
    externalId: row.external_id,
    amountCents: BigInt(row.amount_cents),
    isoCurrencyCode: row.iso_currency_code,
    date: row.date,
    authorizedDate: row.authorized_date ?? '',
    name: row.name,
    merchantName: row.merchant_name,
    pending: row.pending,
    providerCategory: row.provider_category,
    version: BigInt(row.version),
  });
}

/** One change of a sync page, in the order banking applied it. */
export type PageChange = { kind: 'added' | 'modified' | 'removed'; row: TransactionRow };

/**
 * Changes per `bank_transactions.page` event at most: a page of 500 (SYNC_PAGE_SIZE's maximum) is one event of
 * about 100 kB, far below JetStream's 1 MB message limit; a merge's larger sets are split.
 */
export const PAGE_EVENT_CHANGES = 1000;

/**
 * A sync page's changes as `bank_transactions.page` events (issue #22: one event per page instead of one per
 * change), in the caller's transaction; the ledger books a page in one database transaction and deduplicates
 * per transaction id and version.
 */
export async function transactionsPageEvents(trx: Knex.Transaction, workspaceId: string, changes: readonly PageChange[]): Promise<void> {
  if (changes.length === 0) return;
  const events = [];
  for (let i = 0; i < changes.length; i += PAGE_EVENT_CHANGES) {
    events.push({
      type: EventType.BankTransactionsPage,
      workspaceId,
      payload: {
        changes: changes.slice(i, i + PAGE_EVENT_CHANGES).map(({ kind, row }) =>
          kind === 'removed'
            ? {
                change: {
                  case: 'removed' as const,
                  value: { id: row.id, accountId: row.account_id, externalId: row.external_id, version: BigInt(row.version) },
                },
              }
            : { change: { case: kind, value: transactionPayload(row) } },
        ),
      },
    } as const);
  }
  await writeEvents(trx, SOURCE, events);
}

/** `bank_transaction.added` for a whole sync page: the chassis's `writeEvents`, one multi-row insert and one NOTIFY. */
export async function transactionsAddedEvents(trx: Knex.Transaction, rows: readonly TransactionRow[]): Promise<void> {
  await writeEvents(
    trx,
    SOURCE,
    rows.map((row) => ({ type: EventType.BankTransactionAdded, workspaceId: row.workspace_id, payload: transactionPayload(row) })),
  );
}

export async function transactionRemovedEvent(trx: Knex.Transaction, row: TransactionRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: EventType.BankTransactionRemoved,
    workspaceId: row.workspace_id,
    payload: { id: row.id, accountId: row.account_id, externalId: row.external_id, version: BigInt(row.version) },
  });
}

export async function accountLinkedEvent(trx: Knex.Transaction, row: AccountRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: EventType.BankAccountLinked,
    workspaceId: row.workspace_id,
    payload: {
      accountId: row.id,
      name: row.name,
      mask: row.mask,
      type: row.type,
      subtype: row.subtype,
      institutionName: row.institution_name,
      isoCurrencyCode: row.iso_currency_code,
      source: row.source,
    },
  });
}

export async function accountRemovedEvent(trx: Knex.Transaction, row: AccountRow): Promise<void> {
  await writeEvent(trx, SOURCE, {
    type: EventType.BankAccountRemoved,
    workspaceId: row.workspace_id,
    payload: { accountId: row.id },
  });
}

const NO_TOTALS: AccountTotals = { postedTotalCents: 0, postedCount: 0, pendingTotalCents: 0, pendingCount: 0, earliestDate: '' };

/**
 * `bank_account.synced` for each account of a completed sync (the bank's side of the tie-out): the
 * account's balances and version as just recorded, and banking's live transactions of it at this commit.
 */
export async function accountsSyncedEvents(
  trx: Knex.Transaction,
  rows: readonly AccountRow[],
  totals: ReadonlyMap<string, AccountTotals>,
  syncedAt: Date,
): Promise<void> {
  await writeEvents(
    trx,
    SOURCE,
    rows.map((row) => {
      const t = totals.get(row.id) ?? NO_TOTALS;
      const current = row.current_balance_cents === null ? null : Number(row.current_balance_cents);
      const available = row.available_balance_cents === null ? null : Number(row.available_balance_cents);
      return {
        type: EventType.BankAccountSynced,
        workspaceId: row.workspace_id,
        payload: {
          accountId: row.id,
          type: row.type,
          isoCurrencyCode: row.iso_currency_code,
          currentBalanceCents: BigInt(current ?? 0),
          hasCurrentBalance: current !== null,
          availableBalanceCents: BigInt(available ?? 0),
          hasAvailableBalance: available !== null,
          syncedAt: syncedAt.toISOString(),
          postedTotalCents: BigInt(t.postedTotalCents),
          postedCount: BigInt(t.postedCount),
          pendingTotalCents: BigInt(t.pendingTotalCents),
          pendingCount: BigInt(t.pendingCount),
          earliestDate: t.earliestDate,
          version: BigInt(row.synced_version),
        },
      } as const;
    }),
  );
}

/**
 * `bank_connection.reconnect_required` when an item's sign-in lapses (decision 0040: its members are told, by mail too),
 * in the transaction that flags it; an item already waiting for its user is not announced again.
 */
export async function reconnectRequiredEvent(trx: Knex.Transaction, item: ItemRow | undefined, reason: string): Promise<void> {
  if (!item || item.status !== 'active') return;
  const live = await accounts.liveOfItem(trx, item.id);
  await writeEvent(trx, SOURCE, {
    type: EventType.BankConnectionReconnectRequired,
    workspaceId: item.workspace_id,
    payload: { itemId: item.id, accountIds: live.map((a) => a.id), institutionName: item.institution_name, reason },
  });
}
