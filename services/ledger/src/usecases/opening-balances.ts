import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import { isPostableLevel, normalBalance, SYSTEM } from '../domain/chart.js';
import { MSG, RESTRICTION } from '../domain/messages.js';
import { bodyHash, canHaveOpeningBalance, openingBalanceLines } from '../domain/source-posting.js';
import { Problems } from '../domain/validation.js';
import { accountById, accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import { applyVersion, findSource, lockSource } from '../store/postings.js';
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
  const entry = (await trx('journal_entries').where({ id: source.current_entry_id }).first('entry_date', 'seq')) as { entry_date: string; seq: number | string };
  const lines = (await trx('journal_lines').where({ entry_id: source.current_entry_id, account_id: account.id }).select('direction', 'amount_cents')) as { direction: string; amount_cents: number | string }[];
  let debit = 0;
  let credit = 0;
  for (const l of lines) {
    if (l.direction === 'debit') debit += Number(l.amount_cents);
    else credit += Number(l.amount_cents);
  }
  return { categoryId: account.id, amountCents: normalBalance(account.class_group, debit, credit), date: entry.entry_date, journalEntryId: source.current_entry_id, seq: Number(entry.seq) };
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
      const equity = await accountBySystemKey(trx, SYSTEM.openingBalanceEquity);
      const lines = openingBalanceLines(account.id, account.class_group, equity.id, amount as number);
      const description = lines.length > 0 ? `Opening balance: ${account.name}` : '';
      const hash = bodyHash({ date, description, lines });
      const source = await lockSource(trx, tenant.workspaceId, SOURCE_TYPE, account.id);
      const last = (await trx('source_postings').where({ source_type: SOURCE_TYPE, source_id: account.id, version: source.current_version }).first('body_hash')) as { body_hash: string } | undefined;
      // Saving the same balance again changes nothing (no reversal and repost of an identical entry).
      if (last?.body_hash !== hash) {
        await applyVersion(trx, { workspaceId: tenant.workspaceId, sourceType: SOURCE_TYPE, sourceId: account.id, version: source.current_version + 1, date, description, lines, bodyHash: hash });
      }
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
      const source = await findSource(trx, SOURCE_TYPE, account.id);
      if (!source?.current_entry_id) return { message: OPENING_BALANCE_MSG.removed };
      const locked = await lockSource(trx, tenant.workspaceId, SOURCE_TYPE, account.id);
      if (!locked.current_entry_id) return { message: OPENING_BALANCE_MSG.removed };
      await applyVersion(trx, { workspaceId: tenant.workspaceId, sourceType: SOURCE_TYPE, sourceId: account.id, version: locked.current_version + 1, date: '', description: '', lines: [], bodyHash: bodyHash({ date: '', description: '', lines: [] }) });
      return { message: OPENING_BALANCE_MSG.removed };
    });
  }
}

/**
 * Spec §4 edit rule: an opening balance is not edited as a transaction. Transaction routes that find no
 * transaction under an id ask this before answering 404, so an opening balance's entry id is refused
 * with the rule's message (it is changed through its account's opening-balance route).
 */
export async function refuseOpeningBalanceEntry(trx: Knex.Transaction, id: string): Promise<void> {
  if (await trx('journal_entries').where({ id, source_type: SOURCE_TYPE }).first('id')) {
    throw new AppError(ErrorKind.FailedPrecondition, RESTRICTION.openingBalance.message, { appErrorCode: RESTRICTION.openingBalance.code });
  }
}
