import { AppError, ErrorKind, isUuid, newId, withTenant, type FieldError } from '@ledgerline/platform';
import { CountryCode, Products, type AccountBase } from 'plaid';
import { matchTransactions, sameRealAccount, type TxKey } from '../domain/duplicates.js';
import { MERGE_STRATEGIES, planMerge, RESOLUTIONS, type MergeStrategy, type Resolution } from '../domain/merge.js';
import { DUPLICATE_ACCOUNT, MESSAGES } from '../domain/messages.js';
import { balanceToCents } from '../domain/money.js';
import { bankAccountLimitProblem, PLAN_LIMIT_REACHED } from '../domain/plan-limit.js';
import { plaidErrorOf } from '../plaid/client.js';
import { accounts, items, transactions, type Db } from '../store/banking-store.js';
import { workspacePlans } from '../store/plans-store.js';
import type { AccountRow, JobRow, TransactionRow } from '../store/rows.js';
import type { Actor, BankingDeps } from './context.js';
import { accountLinkedEvent, accountRemovedEvent, transactionRemovedEvent, transactionsAddedEvents } from './events.js';
import type { JobScheduler } from './jobs.js';

export interface LinkInput {
  publicToken?: string;
  accounts: { id: string; name: string; mask: string; type: string; subtype: string }[];
  institution?: { name: string; institutionId: string };
  ignoreDuplicateAccounts: boolean;
}

export interface MergeInput {
  sourceAccountId?: string;
  targetAccountId?: string;
  conflicts: { sourceTransactionId?: string; targetTransactionId?: string; resolution?: string }[];
  keepTargetsNonMatchedTransactions?: boolean;
  mergeStrategy?: string;
}

export interface DuplicateMatchView {
  account: AccountView;
  matchingAccount: AccountView;
  overlapping: number;
  matched: number;
  matchPercentage: number;
  pairs: { source: TxKey; target: TxKey }[];
}

export interface AccountView extends AccountRow {
  date_start_at: string;
  date_end_at: string;
}

/** A required UUID field: 400 naming the field when absent or malformed. */
export function requireUuid(value: string | undefined, field: string): string {
  if (value === undefined || value === '') throw AppError.invalid([{ field, message: `${field} is required` }]);
  if (!isUuid(value)) throw AppError.invalid([{ field, message: MESSAGES.mustBeUuid(field) }]);
  return value.toLowerCase();
}

const notFound = () => new AppError(ErrorKind.NotFound, MESSAGES.accountNotFound);

const txKey = (r: TransactionRow): TxKey => ({ id: r.id, date: r.date, amountCents: Number(r.amount_cents) });

function accountKey(a: { institution_id: string; institution_name: string; mask: string; type: string; subtype: string; name: string }) {
  return { institutionId: a.institution_id, institutionName: a.institution_name, mask: a.mask, type: a.type, subtype: a.subtype, name: a.name };
}

/** Bank accounts: link (Plaid Link → item + accounts + first sync), list, remove, duplicate check, merge. */
export class AccountUseCases {
  constructor(
    private readonly deps: BankingDeps,
    private readonly scheduler: JobScheduler,
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async createLinkToken(actor: Actor): Promise<{ linkToken: string; expiration: string }> {
    const r = await this.deps.plaid.linkTokenCreate({
      user: { client_user_id: actor.userId ?? actor.workspaceId },
      client_name: this.deps.config.PLAID_CLIENT_NAME,
      products: [Products.Transactions],
      country_codes: [CountryCode.Us],
      language: 'en',
      webhook: this.deps.config.PLAID_WEBHOOK_URL,
    });
    return { linkToken: r.data.link_token, expiration: r.data.expiration };
  }

  async createUpdateToken(actor: Actor, accountIdInput: string | undefined): Promise<{ linkToken: string; expiration: string }> {
    const accountId = requireUuid(accountIdInput, 'accountId');
    const item = await withTenant(this.deps.db, actor, async (trx) => {
      const account = await accounts.liveById(trx, accountId);
      if (!account?.plaid_item_id) throw notFound();
      return items.byId(trx, account.plaid_item_id);
    });
    if (!item) throw notFound();
    const r = await this.deps.plaid.linkTokenCreate({
      user: { client_user_id: actor.userId ?? actor.workspaceId },
      client_name: this.deps.config.PLAID_CLIENT_NAME,
      country_codes: [CountryCode.Us],
      language: 'en',
      webhook: this.deps.config.PLAID_WEBHOOK_URL,
      access_token: this.deps.tokens.open(item, item.item_id),
    });
    return { linkToken: r.data.link_token, expiration: r.data.expiration };
  }

  async link(actor: Actor, input: LinkInput): Promise<{ accounts: AccountView[]; resultCode: string; matchingAccounts: AccountView[]; jobs: JobRow[] }> {
    const problems: FieldError[] = [];
    if (!input.publicToken) problems.push({ field: 'publicToken', message: MESSAGES.publicTokenRequired });
    if (input.accounts.length === 0) problems.push({ field: 'accounts', message: MESSAGES.accountsEmpty });
    input.accounts.forEach((a, i) => {
      if (!a.id) problems.push({ field: `accounts[${i}].id`, message: MESSAGES.accountIdsRequired });
    });
    if (problems.length > 0) throw AppError.invalid(problems);
    const institution = input.institution ?? { name: '', institutionId: '' };

    if (!input.ignoreDuplicateAccounts) {
      const live = await withTenant(this.deps.db, actor, (trx) => accounts.live(trx));
      const matching = live.filter((e) =>
        input.accounts.some((a) =>
          sameRealAccount(accountKey(e), {
            institutionId: institution.institutionId,
            institutionName: institution.name,
            mask: a.mask,
            type: a.type,
            subtype: a.subtype,
            name: a.name,
          }),
        ),
      );
      if (matching.length > 0) return { accounts: [], resultCode: DUPLICATE_ACCOUNT, matchingAccounts: await this.withRanges(actor, matching), jobs: [] };
    }

    let accessToken: string;
    let itemId: string;
    try {
      const exchanged = await this.deps.plaid.itemPublicTokenExchange({ public_token: input.publicToken! });
      accessToken = exchanged.data.access_token;
      itemId = exchanged.data.item_id;
    } catch (err) {
      if (plaidErrorOf(err)?.error_type === 'INVALID_INPUT') throw AppError.invalid([{ field: 'publicToken', message: 'publicToken is invalid or expired' }]);
      throw err;
    }
    const got = await this.deps.plaid.accountsGet({ access_token: accessToken });
    const byId = new Map<string, AccountBase>(got.data.accounts.map((a) => [a.account_id, a]));
    const unknown = input.accounts.findIndex((a) => !byId.has(a.id));
    if (unknown >= 0) throw AppError.invalid([{ field: `accounts[${unknown}].id`, message: MESSAGES.unknownLinkedAccount(input.accounts[unknown]!.id) }]);
    const institutionId = institution.institutionId || got.data.item.institution_id || '';

    const { linked, job } = await withTenant(this.deps.db, actor, async (trx) => {
      const item = await items.upsert(trx, {
        id: newId(),
        workspace_id: actor.workspaceId,
        item_id: itemId,
        ...this.deps.tokens.seal(accessToken, itemId),
        institution_id: institutionId,
        institution_name: institution.name,
      });
      if (item.workspace_id !== actor.workspaceId) throw new AppError(ErrorKind.Conflict, 'This bank login is linked to another workspace');
      await assertPlanAllows(
        trx,
        actor.workspaceId,
        input.accounts.map((a) => a.id),
      );
      const linkedRows: AccountRow[] = [];
      for (const selected of input.accounts) {
        const p = byId.get(selected.id)!;
        const values = {
          plaid_item_id: item.id,
          name: p.name || selected.name,
          official_name: p.official_name ?? '',
          mask: p.mask ?? selected.mask ?? '',
          type: String(p.type),
          subtype: p.subtype ? String(p.subtype) : selected.subtype,
          institution_id: institutionId,
          institution_name: institution.name,
          iso_currency_code: p.balances.iso_currency_code ?? 'USD',
          available_balance_cents: balanceToCents(p.balances.available),
          current_balance_cents: balanceToCents(p.balances.current),
          reconnect_required: false,
        };
        const existing = await accounts.liveByVendorId(trx, p.account_id);
        const [row] = existing
          ? [await accounts.updateReturning(trx, existing.id, values)]
          : await accounts.insert(trx, [{ id: newId(), workspace_id: actor.workspaceId, vendor_account_id: p.account_id, source: 'plaid', ...values }]);
        linkedRows.push(row!);
        await accountLinkedEvent(trx, row!);
      }
      const syncJob = await this.scheduler.requestSync(trx, {
        workspaceId: actor.workspaceId,
        plaidItemId: item.id,
        accountId: linkedRows[0]?.id,
        reason: 'link',
      });
      return { linked: linkedRows, job: syncJob };
    });
    await this.scheduler.publish(job);
    return { accounts: await this.withRanges(actor, linked), resultCode: '', matchingAccounts: [], jobs: [job] };
  }

  async list(actor: Actor): Promise<AccountView[]> {
    const rows = await withTenant(this.deps.db, actor, (trx) => accounts.live(trx));
    return this.withRanges(actor, rows);
  }

  private async withRanges(actor: Actor, rows: AccountRow[]): Promise<AccountView[]> {
    const ranges = await withTenant(this.deps.db, actor, (trx) =>
      accounts.dateRanges(
        trx,
        rows.map((r) => r.id),
      ),
    );
    return rows.map((r) => ({ ...r, date_start_at: ranges.get(r.id)?.start ?? '', date_end_at: ranges.get(r.id)?.end ?? '' }));
  }

  async remove(actor: Actor, accountIdInput: string | undefined): Promise<{ message: string }> {
    const accountId = requireUuid(accountIdInput, 'id');
    const orphanedItem = await withTenant(this.deps.db, actor, async (trx) => {
      const account = await accounts.liveById(trx, accountId);
      if (!account) throw notFound();
      const removed = await accounts.updateReturning(trx, account.id, { active: false, removed_at: this.now() });
      await accountRemovedEvent(trx, removed!);
      if (!account.plaid_item_id) return undefined;
      const rest = await accounts.liveOfItem(trx, account.plaid_item_id);
      if (rest.length > 0) return undefined;
      const item = await items.byId(trx, account.plaid_item_id);
      await items.update(trx, account.plaid_item_id, { status: 'removed' });
      return item;
    });
    if (orphanedItem) {
      // No account of the login is left: end it at Plaid too (best effort; the item is already unused here).
      await this.deps.plaid
        .itemRemove({ access_token: this.deps.tokens.open(orphanedItem, orphanedItem.item_id) })
        .catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'Plaid item removal failed'));
    }
    return { message: MESSAGES.removed };
  }

  async checkAnomaly(actor: Actor, accountIdInput: string | undefined): Promise<{ resultCode: string; matches: DuplicateMatchView[] }> {
    const accountId = accountIdInput ? requireUuid(accountIdInput, 'accountId') : undefined;
    return withTenant(this.deps.db, actor, async (trx) => {
      const live = await accounts.live(trx);
      if (accountId && !live.some((a) => a.id === accountId)) throw notFound();
      const pairs: [AccountRow, AccountRow][] = [];
      for (let i = 0; i < live.length; i++) {
        for (let j = 0; j < live.length; j++) {
          const a = live[i]!;
          const b = live[j]!;
          if (i === j || !sameRealAccount(accountKey(a), accountKey(b))) continue;
          // Without an account named, each pair once, the newer account checked against the older.
          if (accountId ? a.id !== accountId : j > i) continue;
          pairs.push([a, b]);
        }
      }
      const txCache = new Map<string, TxKey[]>();
      const txOf = async (id: string) => {
        if (!txCache.has(id)) txCache.set(id, (await transactions.liveOf(trx, id)).map(txKey));
        return txCache.get(id)!;
      };
      const ranges = await accounts.dateRanges(
        trx,
        live.map((a) => a.id),
      );
      const view = (r: AccountRow): AccountView => ({ ...r, date_start_at: ranges.get(r.id)?.start ?? '', date_end_at: ranges.get(r.id)?.end ?? '' });
      const matches: DuplicateMatchView[] = [];
      for (const [a, b] of pairs) {
        const m = matchTransactions(await txOf(a.id), await txOf(b.id));
        matches.push({
          account: view(a),
          matchingAccount: view(b),
          overlapping: m.overlapping.length,
          matched: m.pairs.length,
          matchPercentage: m.matchPercentage,
          pairs: m.pairs,
        });
      }
      return { resultCode: matches.length > 0 ? DUPLICATE_ACCOUNT : '', matches };
    });
  }

  async merge(actor: Actor, input: MergeInput): Promise<{ target: AccountView; moved: number; dropped: number; removedTarget: number }> {
    const sourceId = requireUuid(input.sourceAccountId, 'sourceAccountId');
    const targetId = requireUuid(input.targetAccountId, 'targetAccountId');
    const problems: FieldError[] = [];
    if (sourceId === targetId) problems.push({ field: 'targetAccountId', message: MESSAGES.sameAccount });
    const strategy = (input.mergeStrategy || 'forward-only-merge') as MergeStrategy;
    if (!MERGE_STRATEGIES.includes(strategy)) problems.push({ field: 'mergeStrategy', message: MESSAGES.mergeStrategy });
    const conflicts = input.conflicts.map((c, i) => {
      for (const field of ['sourceTransactionId', 'targetTransactionId'] as const) {
        if (!c[field] || !isUuid(c[field])) problems.push({ field: `conflicts[${i}].${field}`, message: MESSAGES.mustBeUuid(`conflicts[${i}].${field}`) });
      }
      if (!RESOLUTIONS.includes(c.resolution as Resolution)) problems.push({ field: `conflicts[${i}].resolution`, message: MESSAGES.resolution });
      return {
        sourceTransactionId: (c.sourceTransactionId ?? '').toLowerCase(),
        targetTransactionId: (c.targetTransactionId ?? '').toLowerCase(),
        resolution: c.resolution as Resolution,
      };
    });
    if (problems.length > 0) throw AppError.invalid(problems);

    const result = await withTenant(this.deps.db, actor, async (trx) => {
      const source = await accounts.liveById(trx, sourceId);
      const target = await accounts.liveById(trx, targetId);
      if (!source || !target) throw notFound();
      // Lock both accounts' items: a sync of either must not interleave with the merge.
      for (const itemId of [source.plaid_item_id, target.plaid_item_id]) if (itemId) await items.lock(trx, itemId);
      const sourceTx = await transactions.liveOf(trx, source.id);
      const targetTx = await transactions.liveOf(trx, target.id);
      const sourceIds = new Set(sourceTx.map((t) => t.id));
      const targetIds = new Set(targetTx.map((t) => t.id));
      const bad: FieldError[] = [];
      conflicts.forEach((c, i) => {
        if (!sourceIds.has(c.sourceTransactionId))
          bad.push({ field: `conflicts[${i}].sourceTransactionId`, message: MESSAGES.conflictTransaction(`conflicts[${i}].sourceTransactionId`) });
        if (!targetIds.has(c.targetTransactionId))
          bad.push({ field: `conflicts[${i}].targetTransactionId`, message: MESSAGES.conflictTransaction(`conflicts[${i}].targetTransactionId`) });
      });
      // An id that names no transaction of the account (another workspace's included) is not found (issue #15).
      if (bad.length > 0) throw new AppError(ErrorKind.NotFound, bad[0]?.message ?? 'Transaction not found', { fields: bad });

      const plan = planMerge({
        strategy,
        source: sourceTx.map(txKey),
        target: targetTx.map(txKey),
        conflicts,
        keepTargetsNonMatchedTransactions: input.keepTargetsNonMatchedTransactions ?? true,
      });
      const byId = new Map(sourceTx.concat(targetTx).map((t) => [t.id, t]));
      const now = this.now();
      const retire = async (row: TransactionRow) => {
        const removed = await transactions.update(trx, row.id, { removed_at: now, removed_reason: 'merge', version: row.version + 1 });
        await transactionRemovedEvent(trx, removed);
      };
      const moves = plan.move.map((id) => byId.get(id)!);
      const copies = await transactions.insertNew(
        trx,
        moves.map((t) => ({
          id: newId(),
          workspace_id: t.workspace_id,
          account_id: target.id,
          external_id: t.external_id,
          amount_cents: Number(t.amount_cents),
          iso_currency_code: t.iso_currency_code,
          date: t.date,
          authorized_date: t.authorized_date,
          name: t.name,
          merchant_name: t.merchant_name,
          pending: t.pending,
          provider_category: t.provider_category,
          version: 1,
        })),
      );
      await transactionsAddedEvents(trx, copies);
      for (const t of moves) await retire(t);
      for (const id of plan.drop) await retire(byId.get(id)!);
      for (const id of plan.removeTarget) await retire(byId.get(id)!);

      // The target carries on with the source's feed (the newer link); the source is retired.
      const retired = await accounts.updateReturning(trx, source.id, { active: false, removed_at: now, merged_into_account_id: target.id });
      await accountRemovedEvent(trx, retired!);
      if (source.plaid_item_id) {
        await accounts.update(trx, target.id, {
          plaid_item_id: source.plaid_item_id,
          vendor_account_id: source.vendor_account_id,
          reconnect_required: source.reconnect_required,
          available_balance_cents: source.available_balance_cents,
          current_balance_cents: source.current_balance_cents,
          last_synced_at: source.last_synced_at,
        });
      }
      const ranges = await accounts.dateRanges(trx, [target.id]);
      const updated = (await accounts.byId(trx, target.id))!;
      return {
        target: { ...updated, date_start_at: ranges.get(target.id)?.start ?? '', date_end_at: ranges.get(target.id)?.end ?? '' },
        moved: copies.length,
        dropped: plan.drop.length + (moves.length - copies.length),
        removedTarget: plan.removeTarget.length,
      };
    });
    return result;
  }

  async syncNow(actor: Actor, accountIdInput: string | undefined): Promise<JobRow> {
    const accountId = requireUuid(accountIdInput, 'accountId');
    const job = await withTenant(this.deps.db, actor, async (trx) => {
      const account = await accounts.liveById(trx, accountId);
      if (!account?.plaid_item_id) throw notFound();
      return this.scheduler.requestSync(trx, { workspaceId: actor.workspaceId, plaidItemId: account.plaid_item_id, accountId: account.id, reason: 'manual' });
    });
    await this.scheduler.publish(job);
    return job;
  }

  async listTransactions(
    actor: Actor,
    input: { accountId?: string; page: number; take: number },
  ): Promise<{ rows: TransactionRow[]; total: number; page: number; take: number }> {
    const accountId = input.accountId ? requireUuid(input.accountId, 'accountId') : undefined;
    const page = input.page || 1;
    const take = input.take || 20;
    const problems: FieldError[] = [];
    if (page < 1) problems.push({ field: 'page', message: 'page must be at least 1' });
    if (take < 1 || take > 100) problems.push({ field: 'take', message: 'take must be between 1 and 100' });
    if (problems.length > 0) throw AppError.invalid(problems);
    return withTenant(this.deps.db, actor, async (trx) => {
      if (accountId && !(await accounts.byId(trx, accountId))) throw notFound();
      const r = await transactions.page(trx, { accountId, page, take });
      return { ...r, page, take };
    });
  }
}

/**
 * Refuses a link that would take the workspace's live bank accounts past its plan (banking's copy of billing's
 * limits, decision 0044). The plan row is locked, so two links of one workspace cannot both pass. A workspace of
 * which billing has said nothing is not limited (billing does not run, or has not told banking yet).
 */
async function assertPlanAllows(trx: Db, workspaceId: string, vendorAccountIds: string[]): Promise<void> {
  const plan = await workspacePlans.lockOf(trx, workspaceId);
  if (!plan) return;
  const live = await accounts.live(trx);
  const already = new Set(live.map((a) => a.vendor_account_id));
  const after = live.length + new Set(vendorAccountIds.filter((id) => !already.has(id))).size;
  const problem = bankAccountLimitProblem({ name: plan.plan_name, bankAccounts: plan.bank_accounts }, after);
  if (problem)
    throw new AppError(ErrorKind.FailedPrecondition, problem, { appErrorCode: PLAN_LIMIT_REACHED, fields: [{ field: 'accounts', message: problem }] });
}
