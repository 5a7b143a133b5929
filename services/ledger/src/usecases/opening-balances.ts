import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import { isPostableLevel, normalBalance, SYSTEM } from '../domain/chart.js';
import { MSG, RESTRICTION } from '../domain/messages.js';
import { bodyHash, canHaveOpeningBalance, openingBalanceLines } from '../domain/source-posting.js';
import { derivedOpeningBalance } from '../domain/tie-out.js';
import { Problems } from '../domain/validation.js';
import { accountById, accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import { pins, snapshotOf } from '../store/bank-snapshots.js';
import { entryDateAndSeq, entryLinesOn, isEntryOfSourceType } from '../store/journal.js';
import { applyVersion, findSource, lockSource, versionBodyHash } from '../store/postings.js';
import { assertCanEdit, changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';

export const OPENING_BALANCE_MSG = {
  saved: 'Opening balance has been saved successfully.',
  removed: 'Opening balance has been removed successfully.',
  notBalanceSheet: 'An opening balance can only be set on a bank, card, asset, liability or equity account',
  notPostable: 'An opening balance can only be set on a category or sub-category, not a category type or group',
  isEquityAccount: 'Opening Balance Equity is the other side of every opening balance and cannot have one itself',
  amount: 'openingBalance must be an amount with at most 2 decimals',
} as const;

export interface OpeningBalanceView {
  categoryId: string;
  /** In the account's normal direction. */
  amountCents: number;
  date: string;
  journalEntryId: string;
  seq: number;
}

/** Opening balances are versions of the source (OpeningBalance, account id): PostEntry's machinery. */
const SOURCE_TYPE = 'OpeningBalance' as const;

async function currentView(trx: Knex.Transaction, account: AccountRow): Promise<OpeningBalanceView | undefined> {
  const source = await findSource(trx, SOURCE_TYPE, account.id);
  if (!source?.current_entry_id) return undefined;
  const entry = await entryDateAndSeq(trx, source.current_entry_id);
  const lines = await entryLinesOn(trx, source.current_entry_id, account.id);
  let debit = 0;
  let credit = 0;
  for (const l of lines) {
    if (l.direction === 'debit') debit += Number(l.amount_cents);
    else credit += Number(l.amount_cents);
  }
  return {
    categoryId: account.id,
    amountCents: normalBalance(account.class_group, debit, credit),
    date: entry.entry_date,
    journalEntryId: source.current_entry_id,
    seq: Number(entry.seq),
  };
}

async function balanceSheetAccount(trx: Knex.Transaction, id: string): Promise<AccountRow> {
  const account = await accountById(trx, id);
  if (!account) throw AppError.notFound('Category');
  const refuse = (message: string) => AppError.invalid([{ field: 'id', message }]);
  if (!canHaveOpeningBalance(account.class_group)) throw refuse(OPENING_BALANCE_MSG.notBalanceSheet);
  if (!isPostableLevel(account.level)) throw refuse(OPENING_BALANCE_MSG.notPostable);
  if (account.system_key === SYSTEM.openingBalanceEquity) throw refuse(OPENING_BALANCE_MSG.isEquityAccount);
  return account;
}

/**
 * Opening balances of balance-sheet accounts (as QuickBooks and Xero keep them): an `OpeningBalance`
 * entry of the account against Opening Balance Equity dated the opening date. Changing it reverses
 * the entry and posts a new one; removing it reverses it. Posted lines never change.
 */
export class OpeningBalanceUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  get(tenant: Tenant, categoryId: string) {
    const p = new Problems();
    p.uuid('id', categoryId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await accountById(trx, categoryId);
      if (!account) throw AppError.notFound('Category');
      return currentView(trx, account);
    });
  }

  /** Sets the opening balance (amount in cents, in the account's normal direction; 0 removes it). */
  async set(tenant: Tenant, input: { categoryId: string; amountCents?: bigint | number; date?: string }) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', input.categoryId, { required: true });
    const amount = input.amountCents === undefined ? undefined : Number(input.amountCents);
    if (amount === undefined) p.add('openingBalance', MSG.required('openingBalance'));
    else if (!Number.isSafeInteger(amount) || Math.abs(amount) > 1e13) p.add('openingBalance', OPENING_BALANCE_MSG.amount);
    if (!input.date) p.add('openingBalanceDate', MSG.required('openingBalanceDate'));
    else p.date('openingBalanceDate', input.date);
    p.throwIfAny();
    const date = input.date as string;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await balanceSheetAccount(trx, input.categoryId);
      // Set by hand on a linked bank account: it is pinned, and syncs no longer derive it (issue #12).
      if (account.bank_account_id) await pins.set(trx, tenant.workspaceId, account.id, tenant.userId);
      await bookOpeningBalance(trx, tenant.workspaceId, account, amount as number, date);
      return { openingBalance: await currentView(trx, account), message: OPENING_BALANCE_MSG.saved };
    });
  }

  /** Removes the opening balance (a reversal); an account without one is left as it is. */
  async remove(tenant: Tenant, categoryId: string) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', categoryId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await accountById(trx, categoryId);
      if (!account) throw AppError.notFound('Category');
      if (account.bank_account_id) {
        // A linked bank account goes back to the balance the bank implies, at once, when a sync has told it.
        await pins.clear(trx, account.id);
        if (await deriveBankOpeningBalance(trx, tenant.workspaceId, account)) return { message: OPENING_BALANCE_MSG.removed };
      }
      const source = await findSource(trx, SOURCE_TYPE, account.id);
      if (!source?.current_entry_id) return { message: OPENING_BALANCE_MSG.removed };
      const locked = await lockSource(trx, tenant.workspaceId, SOURCE_TYPE, account.id);
      if (!locked.current_entry_id) return { message: OPENING_BALANCE_MSG.removed };
      await applyVersion(trx, {
        workspaceId: tenant.workspaceId,
        sourceType: SOURCE_TYPE,
        sourceId: account.id,
        version: locked.current_version + 1,
        date: '',
        description: '',
        lines: [],
        bodyHash: bodyHash({ date: '', description: '', lines: [] }),
      });
      return { message: OPENING_BALANCE_MSG.removed };
    });
  }
}

/**
 * Posts the opening balance of an account as the next version of its source (OpeningBalance, account id):
 * the same body as the current version posts nothing; another one reverses the current entry and posts the
 * new one; 0 voids. Shared by the route (set by hand) and the bank tie-out (derived from the bank).
 */
export async function bookOpeningBalance(trx: Knex.Transaction, workspaceId: string, account: AccountRow, amountCents: number, date: string): Promise<void> {
  const equity = await accountBySystemKey(trx, SYSTEM.openingBalanceEquity);
  const lines = openingBalanceLines(account.id, account.class_group, equity.id, amountCents);
  const description = lines.length > 0 ? `Opening balance: ${account.name}` : '';
  const hash = bodyHash({ date, description, lines });
  const source = await lockSource(trx, workspaceId, SOURCE_TYPE, account.id);
  const last = await versionBodyHash(trx, SOURCE_TYPE, account.id, source.current_version);
  // Saving the same balance again changes nothing (no reversal and repost of an identical entry).
  if (last !== hash) {
    await applyVersion(trx, {
      workspaceId,
      sourceType: SOURCE_TYPE,
      sourceId: account.id,
      version: source.current_version + 1,
      date,
      description,
      lines,
      bodyHash: hash,
    });
  }
}

/**
 * A linked bank account's opening balance from the bank's latest snapshot (issue #12): what makes its
 * ledger balance equal the bank's current balance once the snapshot's posted transactions are booked.
 * Nothing when the opening balance is pinned (set by hand), when no snapshot has arrived, or when the
 * snapshot cannot be booked (no current balance, another currency). True when it was (re)derived.
 * The source row is locked before the pin is read, so a hand-set racing a sync wins either way round.
 */
export async function deriveBankOpeningBalance(trx: Knex.Transaction, workspaceId: string, account: AccountRow): Promise<boolean> {
  if (!account.bank_account_id) return false;
  await lockSource(trx, workspaceId, SOURCE_TYPE, account.id);
  if (await pins.has(trx, account.id)) return false;
  const snapshot = await snapshotOf(trx, account.bank_account_id);
  const derived = snapshot && derivedOpeningBalance(account.class_group, snapshot);
  if (!derived) return false;
  await bookOpeningBalance(trx, workspaceId, account, derived.amountCents, derived.date);
  return true;
}

/**
 * Spec §4 edit rule: an opening balance is not edited as a transaction. Transaction routes that find no
 * transaction under an id ask this before answering 404, so an opening balance's entry id is refused
 * with the rule's message (it is changed through its account's opening-balance route).
 */
export async function refuseOpeningBalanceEntry(trx: Knex.Transaction, id: string): Promise<void> {
  if (await isEntryOfSourceType(trx, id, SOURCE_TYPE)) {
    throw new AppError(ErrorKind.FailedPrecondition, RESTRICTION.openingBalance.message, { appErrorCode: RESTRICTION.openingBalance.code });
  }
}
